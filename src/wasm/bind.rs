//! Turns the rows of `table.rs` that belong to this module into `#[wasm_bindgen]` exports, and
//! the small helpers both modules' rows share.

/// Expands `$item` only in the module named first (`main` or `extras`).
macro_rules! when {
    (main; $($item:item)*) => { $( #[cfg(not(feature = "extras-wasm"))] $item )* };
    (extras; $($item:item)*) => { $( #[cfg(feature = "extras-wasm")] $item )* };
}
pub(crate) use when;

/// The `then` of `table!` in a wasm build: each row becomes its export.
macro_rules! bind {
    (
        fns { $( $(#[doc = $doc:expr])* $module:ident $js:ident = fn $name:ident ( $($arg:ident : $ty:ty),* ) -> $ret:ty [$ts:expr] $body:block )* }
        classes { $( $(#[doc = $cdoc:expr])* $cmodule:ident $class:ident ($inner:ty) {
            $(#[doc = $sdoc:expr])* $sjs:ident = fn $sname:ident ( $($sarg:ident : $sty:ty),* ) -> $sret:ty [$sts:expr] $sbody:block
            $( $(#[doc = $mdoc:expr])* $mjs:ident = fn $mname:ident ( & $self_:ident $(, $marg:ident : $mty:ty)* ) -> $mret:ty [$mts:expr] $mbody:block )*
        } )* }
    ) => {
        $( $crate::wasm::bind::when! { $module;
            $(#[doc = $doc])*
            #[allow(clippy::unused_unit)]
            #[wasm_bindgen(js_name = $js)]
            pub fn $name($($arg: $ty),*) -> $ret $body
        } )*
        $( $crate::wasm::bind::when! { $cmodule;
            $(#[doc = $cdoc])*
            #[wasm_bindgen]
            pub struct $class {
                inner: $inner,
            }

            #[wasm_bindgen]
            impl $class {
                $(#[doc = $sdoc])*
                #[wasm_bindgen(js_name = $sjs)]
                pub fn $sname($($sarg: $sty),*) -> $sret $sbody
                $(
                    $(#[doc = $mdoc])*
                    #[wasm_bindgen(js_name = $mjs)]
                    pub fn $mname(& $self_ $(, $marg: $mty)*) -> $mret $mbody
                )*
            }
        } )*
    };
}
pub(crate) use bind;

/// A validation report of one error (bad UTF-8): `{"ok": false, "errors": [EvalError]}`.
pub fn invalid_report(e: &crate::EvalError) -> String {
    format!("{{\"ok\":false,\"errors\":[{}]}}", crate::api::error_body(e))
}
