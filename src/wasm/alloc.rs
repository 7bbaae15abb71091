//! The wasm global allocator: size-class free lists for small blocks in front of dlmalloc (as std
//! uses) over a memory source that grows the linear memory geometrically.
//!
//! - Growth: std's source grows the memory by exactly what each request needs, and V8 takes
//!   about a millisecond per `memory.grow`, so parsing a 25 MB eval set made thousands of grows
//!   and took seconds on its first call; growing by half the current size makes that a handful.
//! - Small blocks: parsing a 10,000-invocation case makes ~800,000 allocations, nine in ten of
//!   at most 256 bytes (strings, boxed parts, short vectors). dlmalloc's bins cost over 100 ns
//!   each in wasm, 40% of that parse. Blocks of up to [`SMALL_MAX`] bytes (alignment at most 8)
//!   come instead from one free list per 8-byte size class, refilled from 64 KiB slabs carved
//!   front to back; a freed block goes back on its class's list. Slabs are never returned to
//!   dlmalloc, so memory freed as small blocks serves only small blocks of the same class later
//!   (the linear memory never shrinks anyway).

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

/// The largest block served by the size classes.
const SMALL_MAX: usize = 256;
/// Class granularity: also the largest alignment the classes give.
const GRAIN: usize = 8;
const CLASSES: usize = SMALL_MAX / GRAIN;
/// What a slab takes from dlmalloc.
const SLAB: usize = 64 * 1024;

struct Small {
    /// Per class, the first free block; a free block's first word points to the next.
    free: [*mut u8; CLASSES],
    /// The rest of the current slab, carved front to back.
    bump: *mut u8,
    end: *mut u8,
}

static mut SMALL: Small = Small {
    free: [ptr::null_mut(); CLASSES],
    bump: ptr::null_mut(),
    end: ptr::null_mut(),
};

/// The size class of a layout the small path serves, or `None`.
#[inline]
fn class_of(layout: &Layout) -> Option<usize> {
    let size = layout.size();
    if size <= SMALL_MAX && layout.align() <= GRAIN {
        // `size` is at least 1 for a GlobalAlloc request; 0 would share class 0 harmlessly.
        Some(size.saturating_sub(1) / GRAIN)
    } else {
        None
    }
}

impl Small {
    #[inline]
    unsafe fn alloc(&mut self, class: usize) -> *mut u8 {
        let Some(head) = self.free.get_mut(class) else {
            return ptr::null_mut();
        };
        if !head.is_null() {
            let block = *head;
            *head = *(block as *mut *mut u8);
            return block;
        }
        let size = (class + 1) * GRAIN;
        if (self.end as usize) - (self.bump as usize) < size {
            // Put what is left of the old slab on the list of the class it fits (less than one
            // block of this class), then take a new slab.
            let left = (self.end as usize) - (self.bump as usize);
            if left >= GRAIN {
                if let Some(slot) = self.free.get_mut(left / GRAIN - 1) {
                    *(self.bump as *mut *mut u8) = *slot;
                    *slot = self.bump;
                }
            }
            let slab = (*ptr::addr_of_mut!(DLMALLOC)).malloc(SLAB, GRAIN);
            if slab.is_null() {
                return ptr::null_mut();
            }
            self.bump = slab;
            self.end = slab.add(SLAB);
        }
        let block = self.bump;
        self.bump = block.add(size);
        block
    }

    #[inline]
    unsafe fn free(&mut self, block: *mut u8, class: usize) {
        if let Some(head) = self.free.get_mut(class) {
            *(block as *mut *mut u8) = *head;
            *head = block;
        }
    }
}

unsafe impl GlobalAlloc for WasmAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match class_of(&layout) {
            Some(class) => (*ptr::addr_of_mut!(SMALL)).alloc(class),
            None => (*ptr::addr_of_mut!(DLMALLOC)).malloc(layout.size(), layout.align()),
        }
    }
    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        match class_of(&layout) {
            Some(class) => (*ptr::addr_of_mut!(SMALL)).free(p, class),
            None => (*ptr::addr_of_mut!(DLMALLOC)).free(p, layout.size(), layout.align()),
        }
    }
    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match class_of(&layout) {
            Some(class) => {
                // A recycled block holds old bytes.
                let p = (*ptr::addr_of_mut!(SMALL)).alloc(class);
                if !p.is_null() {
                    ptr::write_bytes(p, 0, layout.size());
                }
                p
            }
            None => (*ptr::addr_of_mut!(DLMALLOC)).calloc(layout.size(), layout.align()),
        }
    }
    #[inline]
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = class_of(&layout);
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        let new = class_of(&new_layout);
        match (old, new) {
            (None, None) => (*ptr::addr_of_mut!(DLMALLOC)).realloc(p, layout.size(), layout.align(), new_size),
            // The same class: the block already has room.
            (Some(a), Some(b)) if a == b => p,
            _ => {
                let q = self.alloc(new_layout);
                if !q.is_null() {
                    ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
                    self.dealloc(p, layout);
                }
                q
            }
        }
    }
}

#[global_allocator]
static GLOBAL: WasmAlloc = WasmAlloc;
