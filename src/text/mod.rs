//! Text scoring shared by the lexical metrics: ADK's tokenizer, NLTK's Porter stemmer, ROUGE-1.
mod cache;
pub mod highlight;
pub mod porter;
pub mod rouge;
pub mod tokenize;
pub mod unicode;
