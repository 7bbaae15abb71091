//! `response_match_score`: ROUGE-1 F-measure of the actual vs expected final response text.

use super::{per_pair, Ctx, NotEvaluated, Outcome};
use crate::schema::content::text_of;
use crate::schema::Criterion;
use crate::text::rouge::rouge1;

pub fn score(ctx: &Ctx, criterion: &Criterion) -> Result<Outcome, NotEvaluated> {
    per_pair(ctx, criterion, "response_match_score", |a, e| {
        rouge1(&text_of(a.final_response.as_ref()), &text_of(e.final_response.as_ref())).fmeasure
    })
}
