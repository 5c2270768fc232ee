//! Runtime CPU-feature dispatch: which compiled copy of a hot kernel this machine
//! runs; and the CPU time the process has used, for benchmarks.
//!
//! The release build is portable (no `-C target-cpu`), so `count_ones`,
//! `trailing_zeros` and `x & (x - 1)` compile to long generic sequences and nothing
//! is vectorised for AVX2. A hot recursion is therefore compiled three times by
//! `isa_copies!`: a portable copy, and on x86_64 a copy with the x86-64-v3
//! integer and vector features enabled (`popcnt`, `lzcnt`, `bmi1`, `bmi2`, `avx2`)
//! and one that adds AVX-512 on 256-bit registers (`avx512f`, `avx512vl`,
//! `avx512cd`: mask registers, three-input logic, per-lane leading-zero counts).
//! A `#[target_feature]` function only speeds up the code inlined into it, so every
//! recursive function of a hot path must be inside the copy; the small kernels it
//! calls (`flips`, `moves`, …) are `#[inline]` and get inlined into each copy.
//!
//! The features are detected once per process ([`Isa::detected`]); a feature copy
//! is only entered after that detection said yes. The environment variable
//! `TABULA_ISA` (`portable`, `x86-64-v3` or `x86-64-v4`) caps the choice, for
//! comparing the copies on one machine; it never selects a copy the CPU lacks.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// An instruction set a kernel has a compiled copy for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// The plain code, for every machine.
    Portable,
    /// x86_64 with `popcnt`, `lzcnt`, `bmi1`, `bmi2` and `avx2` (a subset of
    /// x86-64-v3). Only ever constructed after the features were detected.
    #[cfg(target_arch = "x86_64")]
    X86_64V3,
    /// [`Isa::X86_64V3`] with `avx512f`, `avx512vl` and `avx512cd` (a subset of
    /// x86-64-v4). Only ever constructed after the features were detected.
    #[cfg(target_arch = "x86_64")]
    X86_64V4,
}

impl Isa {
    /// The best instruction set this machine supports (at most the one named by
    /// `TABULA_ISA`), detected once.
    #[must_use]
    pub fn detected() -> Isa {
        static DETECTED: OnceLock<Isa> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            let cap = std::env::var("TABULA_ISA").ok();
            Isa::detect(cap.as_deref())
        })
    }

    /// The best instruction set of this CPU, at most `cap` where that names one
    /// (an unknown name caps nothing).
    fn detect(cap: Option<&str>) -> Isa {
        let limit = cap.and_then(Isa::named).map_or(usize::MAX, Isa::rank);
        let mut best = Isa::Portable;
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("avx2")
        {
            FAST_BIT_GATHER.store(!slow_bit_gather(), Ordering::Relaxed);
            best = Isa::X86_64V3;
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && std::arch::is_x86_feature_detected!("avx512cd")
            {
                best = Isa::X86_64V4;
            }
        }
        Isa::all()[best.rank().min(limit)]
    }

    /// The place of the instruction set in [`Isa::all`].
    fn rank(self) -> usize {
        Isa::all()
            .iter()
            .position(|&known| known == self)
            .unwrap_or(0)
    }

    /// Every instruction set this build has copies for, in order.
    fn all() -> &'static [Isa] {
        &[
            Isa::Portable,
            #[cfg(target_arch = "x86_64")]
            Isa::X86_64V3,
            #[cfg(target_arch = "x86_64")]
            Isa::X86_64V4,
        ]
    }

    /// The instruction set `TABULA_ISA` names with `name`.
    fn named(name: &str) -> Option<Isa> {
        Isa::all()
            .iter()
            .copied()
            .find(|isa| isa.name() == name.trim())
    }

    /// The name of the instruction set, as `TABULA_ISA` takes it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Isa::X86_64V3 => "x86-64-v3",
            #[cfg(target_arch = "x86_64")]
            Isa::X86_64V4 => "x86-64-v4",
        }
    }

    /// Every instruction set this machine can run (up to the detected one), the
    /// portable one first (for tests that compare the copies).
    #[must_use]
    pub fn available() -> Vec<Isa> {
        Isa::all()[..=Isa::detected().rank()].to_vec()
    }
}

/// Whether `pext` and `pdep` are fast here (one or a few cycles): set by
/// [`Isa::detect`] before any x86-64-v3 copy runs. AMD's processors before Zen 3
/// (families up to 0x18, Hygon's included) have both instructions but run them in
/// microcode, tens to hundreds of cycles each, so the x86-64-v3 copies use them
/// only where this says yes and take the portable gathers otherwise.
static FAST_BIT_GATHER: AtomicBool = AtomicBool::new(false);

/// Whether the x86-64-v3 copies may gather bits with `pext`/`pdep` (see
/// [`FAST_BIT_GATHER`]). A relaxed load of a flag that never changes once the
/// copy runs: the branch on it is always predicted.
#[inline(always)]
#[must_use]
pub fn fast_bit_gather() -> bool {
    FAST_BIT_GATHER.load(Ordering::Relaxed)
}

/// Whether this is an AMD or Hygon processor whose `pext`/`pdep` are microcoded
/// (CPUID family below 0x19, Zen 3).
#[cfg(target_arch = "x86_64")]
fn slow_bit_gather() -> bool {
    let vendor = std::arch::x86_64::__cpuid(0);
    let mut name = [0u8; 12];
    name[..4].copy_from_slice(&vendor.ebx.to_le_bytes());
    name[4..8].copy_from_slice(&vendor.edx.to_le_bytes());
    name[8..].copy_from_slice(&vendor.ecx.to_le_bytes());
    if &name != b"AuthenticAMD" && &name != b"HygonGenuine" {
        return false;
    }
    // Leaf 1 (the signature) exists on every x86_64 processor.
    let signature = std::arch::x86_64::__cpuid(1).eax;
    cpu_family(signature) < 0x19
}

/// The processor family of a CPUID leaf-1 signature: the base family, plus the
/// extended family when the base is 0xF.
#[cfg(any(target_arch = "x86_64", test))]
fn cpu_family(signature: u32) -> u32 {
    let base = (signature >> 8) & 0xF;
    if base == 0xF {
        base + ((signature >> 20) & 0xFF)
    } else {
        base
    }
}

/// Instantiates `$items!` once per instruction set, as `mod portable` and, on
/// x86_64, `mod x86_64_v3` and `mod x86_64_v4` whose functions carry
/// `#[target_feature]`. `$items!` takes the name of the copy (`portable`,
/// `x86_64_v3` or `x86_64_v4`: a kernel module with per-copy functions, such as
/// [`crate::games::othello::bitboard::x86_64_v3`], has a submodule of that name)
/// and the attributes to put on each function, and expands to functions. Calling
/// into `x86_64_v3` (`x86_64_v4`) needs `unsafe` and is sound only after
/// [`Isa::detected`] returned [`Isa::X86_64V3`] or [`Isa::X86_64V4`] (only
/// [`Isa::X86_64V4`]). The feature lists here must match [`Isa::detect`].
macro_rules! isa_copies {
    ($items:ident) => {
        mod portable {
            #[allow(clippy::wildcard_imports)]
            use super::*;
            $items!(portable);
        }
        #[cfg(target_arch = "x86_64")]
        mod x86_64_v3 {
            #[allow(clippy::wildcard_imports)]
            use super::*;
            $items!(x86_64_v3 #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]);
        }
        #[cfg(target_arch = "x86_64")]
        mod x86_64_v4 {
            #[allow(clippy::wildcard_imports)]
            use super::*;
            $items!(x86_64_v4 #[target_feature(
                enable = "popcnt,lzcnt,bmi1,bmi2,avx2,avx512f,avx512vl,avx512cd"
            )]);
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
            // SAFETY: as above, with the AVX-512 features of the copy.
            #[cfg(target_arch = "x86_64")]
            $crate::cpu::Isa::X86_64V4 => unsafe { x86_64_v4::$function($($argument),*) },
        }
    };
}
pub(crate) use dispatch;

/// The CPU time this process has used so far (every thread, user and system), in
/// seconds, where the system reports it (Linux: `/proc/self/stat`, counted in clock
/// ticks of 1/100 s); `None` elsewhere. For benchmarks on a loaded machine, where
/// wall time also counts the time other processes held the cores.
#[must_use]
pub fn process_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces; user and
    // system time are fields 14 and 15, the 12th and 13th after it.
    let (_, rest) = stat.rsplit_once(')')?;
    let mut fields = rest.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some((user + system) as f64 / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_family_adds_the_extended_family_only_past_0xf() {
        // Published leaf-1 signatures: Zen 2 (EPYC 7002, family 0x17), Zen 3
        // (family 0x19), Zen 5 (family 0x1A), and an Intel Core (family 6).
        assert_eq!(cpu_family(0x0083_0F10), 0x17);
        assert_eq!(cpu_family(0x00A0_0F11), 0x19);
        assert_eq!(cpu_family(0x00B0_0F20), 0x1A);
        assert_eq!(cpu_family(0x0009_06EA), 6);
    }

    #[test]
    fn the_named_cap_never_raises_the_detected_instruction_set() {
        let best = Isa::detect(None);
        assert_eq!(Isa::detect(Some("portable")), Isa::Portable);
        assert_eq!(Isa::detect(Some("no such set")), best);
        for &isa in Isa::all() {
            let capped = Isa::detect(Some(isa.name()));
            let rank = |isa: Isa| Isa::all().iter().position(|&known| known == isa);
            assert_eq!(rank(capped), rank(isa).min(rank(best)), "{isa:?}");
        }
        assert_eq!(Isa::available().first(), Some(&Isa::Portable));
        assert_eq!(Isa::available().last(), Some(&Isa::detected()));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn process_seconds_count_the_work_done() {
        let before = process_seconds().expect("Linux reports CPU time");
        let started = std::time::Instant::now();
        let mut x = 1u64;
        let mut now = before;
        // Work until a few ticks have been charged (a loaded machine gives us the
        // core less often: the wall-time bound is generous).
        while now < before + 0.03 && started.elapsed().as_secs() < 60 {
            for _ in 0..1_000_000 {
                x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005) + 1);
            }
            now = process_seconds().expect("Linux reports CPU time");
        }
        assert!(now >= before + 0.03, "{before} -> {now}");
        assert!(now <= before + started.elapsed().as_secs_f64() * 64.0 + 1.0);
    }
}
