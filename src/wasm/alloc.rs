//! The wasm global allocator: dlmalloc (as std uses) over a memory source that grows the linear
//! memory geometrically. std's source grows it by exactly what each request needs, and V8 takes
//! about a millisecond per `memory.grow`, so parsing a 25 MB eval set made thousands of grows and
//! took seconds on its first call; growing by half the current size makes that a handful.

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32;
use core::ptr;
use dlmalloc::{Allocator, Dlmalloc};

const PAGE: usize = 64 * 1024;
/// Smallest step: 1 MiB.
const MIN_PAGES: usize = 16;

pub struct GeometricGrowth;

unsafe impl Allocator for GeometricGrowth {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        let needed = size.div_ceil(PAGE);
        let current = wasm32::memory_size(0);
        // Grow by at least half the current memory, falling back to the bare need near the 4 GiB cap.
        for pages in [needed.max(current / 2).max(MIN_PAGES), needed] {
            let prev = wasm32::memory_grow(0, pages);
            if prev != usize::MAX {
                let base = prev * PAGE;
                let len = pages * PAGE;
                // Never hand out the very last bytes of the address space (a pointer may not wrap to 0).
                let len = if base.wrapping_add(len) == 0 { len - 16 } else { len };
                return (base as *mut u8, len, 0);
            }
        }
        (ptr::null_mut(), 0, 0)
    }
    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        ptr::null_mut()
    }
    fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
        false
    }
    fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
        false
    }
    fn can_release_part(&self, _flags: u32) -> bool {
        false
    }
    fn allocates_zeros(&self) -> bool {
        true
    }
    fn page_size(&self) -> usize {
        PAGE
    }
}

pub struct WasmAlloc;

// wasm32-unknown-unknown without the atomics feature has one thread, so no lock is needed.
static mut DLMALLOC: Dlmalloc<GeometricGrowth> = Dlmalloc::new_with_allocator(GeometricGrowth);

unsafe impl GlobalAlloc for WasmAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        (*ptr::addr_of_mut!(DLMALLOC)).malloc(layout.size(), layout.align())
    }
    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        (*ptr::addr_of_mut!(DLMALLOC)).free(p, layout.size(), layout.align())
    }
    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        (*ptr::addr_of_mut!(DLMALLOC)).calloc(layout.size(), layout.align())
    }
    #[inline]
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        (*ptr::addr_of_mut!(DLMALLOC)).realloc(p, layout.size(), layout.align(), new_size)
    }
}

#[global_allocator]
static GLOBAL: WasmAlloc = WasmAlloc;
