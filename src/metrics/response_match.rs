//! `response_match_score`: ROUGE-1 F-measure of the actual vs expected final response text.

use super::{per_pair, Ctx, NotEvaluated, Outcome};
use crate::schema::content::text_of;
use crate::schema::{Criterion, Invocation};
use crate::text::rouge::rouge1;
use std::borrow::Cow;

fn final_text(invs: &[Invocation], i: usize) -> Cow<'_, str> {
    text_of(invs.get(i).and_then(|inv| inv.final_response.as_ref()))
}

pub fn score(ctx: &Ctx, criterion: &Criterion) -> Result<Outcome, NotEvaluated> {
    let expected = ctx.expected.unwrap_or(&[]);
    per_pair(ctx, criterion, "response_match_score", |i| {
        rouge1(&final_text(ctx.actual, i), &final_text(expected, i)).fmeasure
    })
}
