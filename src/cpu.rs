//! Runtime CPU-feature dispatch: which compiled copy of a hot kernel this machine
//! runs.
//!
//! The release build is portable (no `-C target-cpu`), so `count_ones`,
//! `trailing_zeros` and `x & (x - 1)` compile to long generic sequences and nothing
//! is vectorised for AVX2. A hot recursion is therefore compiled twice by
//! `isa_copies!`: a portable copy, and on x86_64 a copy with the x86-64-v3
//! integer and vector features enabled (`popcnt`, `lzcnt`, `bmi1`, `bmi2`, `avx2`).
//! A `#[target_feature]` function only speeds up the code inlined into it, so every
//! recursive function of a hot path must be inside the copy; the small kernels it
//! calls (`flips`, `moves`, …) are `#[inline]` and get inlined into each copy.
//!
//! The features are detected once per process ([`Isa::detected`]); the feature copy
//! is only entered after that detection said yes.

use std::sync::OnceLock;

/// An instruction set a kernel has a compiled copy for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// The plain code, for every machine.
    Portable,
    /// x86_64 with `popcnt`, `lzcnt`, `bmi1`, `bmi2` and `avx2` (a subset of
    /// x86-64-v3). Only ever constructed after the features were detected.
    #[cfg(target_arch = "x86_64")]
    X86_64V3,
}

impl Isa {
    /// The best instruction set this machine supports, detected once.
    #[must_use]
    pub fn detected() -> Isa {
        static DETECTED: OnceLock<Isa> = OnceLock::new();
        *DETECTED.get_or_init(Isa::detect)
    }

    fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("avx2")
        {
            return Isa::X86_64V3;
        }
        Isa::Portable
    }

    /// Every instruction set this machine can run, the portable one first (for tests
    /// that compare the copies).
    #[must_use]
    pub fn available() -> Vec<Isa> {
        let mut all = vec![Isa::Portable];
        if Isa::detected() != Isa::Portable {
            all.push(Isa::detected());
        }
        all
    }
}

/// Instantiates `$items!` (a macro that takes the attributes to put on each function
/// and expands to functions) once per instruction set, as `mod portable` and, on
/// x86_64, `mod x86_64_v3` whose functions carry `#[target_feature]`. Calling into
/// `x86_64_v3` needs `unsafe` and is sound only after [`Isa::detected`] returned
/// [`Isa::X86_64V3`]. The feature list here must match [`Isa::detect`].
macro_rules! isa_copies {
    ($items:ident) => {
        mod portable {
            #[allow(clippy::wildcard_imports)]
            use super::*;
            $items!();
        }
        #[cfg(target_arch = "x86_64")]
        mod x86_64_v3 {
            #[allow(clippy::wildcard_imports)]
            use super::*;
            $items!(#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]);
        }
    };
}
pub(crate) use isa_copies;

/// Calls `$function` of the copy for `$isa` made by [`isa_copies!`] in the calling
/// module: `dispatch!(isa, perft(board, depth))`.
macro_rules! dispatch {
    ($isa:expr, $function:ident($($argument:expr),* $(,)?)) => {
        match $isa {
            $crate::cpu::Isa::Portable => portable::$function($($argument),*),
            // SAFETY: `Isa::X86_64V3` is only constructed by `Isa::detect` after
            // `is_x86_feature_detected!` found every feature the copy enables.
            #[cfg(target_arch = "x86_64")]
            $crate::cpu::Isa::X86_64V3 => unsafe { x86_64_v3::$function($($argument),*) },
        }
    };
}
pub(crate) use dispatch;
