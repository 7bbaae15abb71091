//! A single-threaded async semaphore: bounds judge calls in flight without a runtime.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

struct State {
    free: usize,
    waiters: VecDeque<(u64, Option<Waker>)>,
    next_ticket: u64,
}

/// Permits handed out first come, first served.
#[derive(Clone)]
pub struct Limit(Rc<RefCell<State>>);

impl Limit {
    pub fn new(permits: usize) -> Limit {
        Limit(Rc::new(RefCell::new(State {
            free: permits.max(1),
            waiters: VecDeque::new(),
            next_ticket: 0,
        })))
    }

    /// Waits for a permit; dropping the guard returns it.
    pub fn acquire(&self) -> Acquire {
        Acquire {
            limit: self.clone(),
            ticket: None,
        }
    }
}

pub struct Acquire {
    limit: Limit,
    ticket: Option<u64>,
}

pub struct Permit(Limit);

impl Future for Acquire {
    type Output = Permit;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Permit> {
        let limit = self.limit.clone();
        let mut st = limit.0.borrow_mut();
        match self.ticket {
            None => {
                if st.free > 0 && st.waiters.is_empty() {
                    st.free -= 1;
                    return Poll::Ready(Permit(self.limit.clone()));
                }
                let t = st.next_ticket;
                st.next_ticket += 1;
                st.waiters.push_back((t, Some(cx.waker().clone())));
                drop(st);
                self.ticket = Some(t);
                Poll::Pending
            }
            Some(t) => {
                let first = st.waiters.front().map(|w| w.0) == Some(t);
                if first && st.free > 0 {
                    st.free -= 1;
                    st.waiters.pop_front();
                    if st.free > 0 {
                        if let Some((_, Some(w))) = st.waiters.front() {
                            w.wake_by_ref();
                        }
                    }
                    drop(st);
                    self.ticket = None;
                    return Poll::Ready(Permit(self.limit.clone()));
                }
                if let Some(w) = st.waiters.iter_mut().find(|w| w.0 == t) {
                    w.1 = Some(cx.waker().clone());
                }
                Poll::Pending
            }
        }
    }
}

impl Drop for Acquire {
    fn drop(&mut self) {
        if let Some(t) = self.ticket {
            let mut st = self.limit.0.borrow_mut();
            st.waiters.retain(|w| w.0 != t);
            if st.free > 0 {
                if let Some((_, Some(w))) = st.waiters.front() {
                    w.wake_by_ref();
                }
            }
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut st = self.0 .0.borrow_mut();
        st.free += 1;
        if let Some((_, Some(w))) = st.waiters.front() {
            w.wake_by_ref();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn bounds_concurrency() {
        let limit = Limit::new(2);
        let inflight = Rc::new(Cell::new(0usize));
        let peak = Rc::new(Cell::new(0usize));
        let futs = (0..6).map(|_| {
            let (limit, inflight, peak) = (limit.clone(), inflight.clone(), peak.clone());
            async move {
                let _p = limit.acquire().await;
                inflight.set(inflight.get() + 1);
                peak.set(peak.get().max(inflight.get()));
                // yield once so others get polled while we hold the permit
                let mut yielded = false;
                futures_util::future::poll_fn(|cx| {
                    if yielded {
                        Poll::Ready(())
                    } else {
                        yielded = true;
                        cx.waker().wake_by_ref();
                        Poll::Pending
                    }
                })
                .await;
                inflight.set(inflight.get() - 1);
            }
        });
        futures_executor::block_on(futures_util::future::join_all(futs));
        assert_eq!(peak.get(), 2);
    }
}
