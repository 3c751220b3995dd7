//! Command-line flags for the examples and the benchmark harnesses, on lexopt: every value is
//! parsed whole (a malformed one is an error that names the flag and says what it takes), names
//! of operations and types through their `FromStr`.

// Each program uses the parts it needs.
#![allow(dead_code)]

use std::str::FromStr;

pub use lexopt::prelude::*;
pub use lexopt::{Arg, Parser};

/// An error message for a bad command line: what was wrong, then the usage.
pub fn fail(what: impl std::fmt::Display, usage: &str) -> String {
    format!("error: {what}\n\n{usage}")
}

/// The next value of `flag`, as text.
pub fn text(p: &mut Parser, flag: &str) -> Result<String, String> {
    let v = p.value().map_err(|e| format!("{flag}: {e}"))?;
    v.into_string()
        .map_err(|v| format!("{flag}: {v:?} is not valid text"))
}

/// The next value of `flag`, parsed as one `T`; `takes` says what the flag takes.
pub fn one<T: FromStr>(p: &mut Parser, flag: &str, takes: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    let v = text(p, flag)?;
    v.trim()
        .parse()
        .map_err(|e| format!("invalid value {v:?} for {flag} ({e}): {flag} takes {takes}"))
}

/// The next value of `flag` as a comma-separated list of `T`.
pub fn list<T: FromStr>(p: &mut Parser, flag: &str, takes: &str) -> Result<Vec<T>, String>
where
    T::Err: std::fmt::Display,
{
    let v = text(p, flag)?;
    split(&v, flag, takes)
}

/// `v` as a comma-separated list of `T` (not empty).
pub fn split<T: FromStr>(v: &str, flag: &str, takes: &str) -> Result<Vec<T>, String>
where
    T::Err: std::fmt::Display,
{
    let out = v
        .split(',')
        .map(|s| {
            s.trim().parse().map_err(|e| {
                format!("invalid value {s:?} in {flag} {v:?} ({e}): {flag} takes {takes}")
            })
        })
        .collect::<Result<Vec<T>, String>>()?;
    if out.is_empty() {
        return Err(format!("{flag} needs at least one value: {takes}"));
    }
    Ok(out)
}

/// Sizes of at least 1: `--n 1000,4096`.
pub fn sizes(p: &mut Parser, flag: &str) -> Result<Vec<usize>, String> {
    let v: Vec<usize> = list(
        p,
        flag,
        "whole numbers of elements of at least 1, e.g. 1000,4096",
    )?;
    if v.contains(&0) {
        return Err(format!("{flag} takes sizes of at least 1"));
    }
    Ok(v)
}

/// Shapes such as `8192x8192,3x1048576` (dimensions of at least 1).
pub fn shapes(p: &mut Parser, flag: &str) -> Result<Vec<Vec<usize>>, String> {
    let v = text(p, flag)?;
    let takes =
        "shapes with dimensions of at least 1 joined by x, comma-separated: 8192x8192,4x5x6";
    v.split(',')
        .map(|s| {
            let dims: Vec<usize> = split(&s.replace('x', ","), flag, takes)?;
            if dims.contains(&0) {
                return Err(format!(
                    "{flag}: {s:?} has a dimension of 0; {flag} takes {takes}"
                ));
            }
            Ok(dims)
        })
        .collect()
}

/// A whole number of at least 1.
pub fn count(p: &mut Parser, flag: &str) -> Result<usize, String> {
    let v: usize = one(p, flag, "a whole number of at least 1")?;
    if v == 0 {
        return Err(format!("{flag} takes a whole number of at least 1"));
    }
    Ok(v)
}

/// The flag's name for messages (`--n`, `-h`).
pub fn name(arg: &Arg) -> String {
    match arg {
        Arg::Long(l) => format!("--{l}"),
        Arg::Short(c) => format!("-{c}"),
        Arg::Value(v) => format!("{v:?}"),
    }
}

/// The usage line and the "Options:" section of a program's module documentation (`doc`, the
/// program's source), for `--help`.
pub fn help(doc: &str, usage: &str) -> String {
    let opts: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("//! Options:"))
        .take_while(|l| l.starts_with("//!"))
        .map(|l| l.trim_start_matches("//!").strip_prefix(' ').unwrap_or(""))
        .collect();
    format!("{usage}\n\n{}", opts.join("\n"))
}

/// `parsed` with its error given the usage (a message that does not start with `error:` gets it,
/// and the usage after it).
pub fn or_usage<A>(parsed: Result<A, String>, usage: &str) -> Result<A, String> {
    parsed.map_err(|e| {
        if e.starts_with("error:") {
            e
        } else {
            fail(e, usage)
        }
    })
}
