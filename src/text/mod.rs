//! Text scoring shared by the lexical metrics: ADK's tokenizer, NLTK's Porter stemmer, ROUGE-1.
mod cache;
pub mod highlight;
pub mod porter;
pub mod rouge;
pub mod tokenize;
pub mod unicode;

/// Tokenizes `text` exactly like ADK 2.13's `_UnicodeAwareTokenizer(use_stemmer=True)`: the
/// chunking rules of [`tokenize`] (the module), stemmed and interned through the token cache.
pub fn tokenize(text: &str) -> Vec<String> {
    cache::with_cache(|cache| {
        let mut ids = Vec::new();
        cache.token_ids(text, &mut ids);
        ids.into_iter().map(|id| cache.token(id).to_owned()).collect()
    })
}
