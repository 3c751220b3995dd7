// Operations whose state is one value (ops/value.wgsl: nansum, the 1-norm, any, all,
// count_nonzero) in the flat first pass (axis/flat.wgsl): a thread's running value is one
// state per lane of a vec4 word, each the operation's own from_elem and combine, so the
// results are those of the general layout's elements in another order.

alias F = vec4<A>;

fn flat_identity() -> F {
    return F(identity());
}

fn flat_step(a: F, x: vec4<f32>, w: u32) -> F {
    let j = 4u * w;
    return F(
        combine(a.x, from_elem(x.x, j)),
        combine(a.y, from_elem(x.y, j + 1u)),
        combine(a.z, from_elem(x.z, j + 2u)),
        combine(a.w, from_elem(x.w, j + 3u)),
    );
}

fn flat_merge(a: F, b: F) -> F {
    return F(combine(a.x, b.x), combine(a.y, b.y), combine(a.z, b.z), combine(a.w, b.w));
}

fn flat_state(a: F) -> S {
    return combine(combine(a.x, a.y), combine(a.z, a.w));
}

// A state as words, for the one-pass finish (axis/flat.wgsl).
const STATE_WORDS: u32 = 1u;
fn state_words(s: S) -> StateWords {
    return StateWords(bitcast<u32>(s), 0u, 0u);
}
fn state_of(w: StateWords) -> S {
    return bitcast<S>(w[0]);
}
