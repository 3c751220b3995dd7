// Subgroup operations of the radix sort: which lanes of a subgroup hold keys of the same digit
// (eight ballots, one per bit of the digit), and counting in ballots of up to 128 lanes.

// The four words of a ballot below lane `lane`.
fn lanes_below(lane: u32) -> vec4<u32> {
    var m = vec4<u32>(0u);
    for (var w = 0u; w < 4u; w++) {
        if lane >= 32u * (w + 1u) {
            m[w] = 0xffffffffu;
        } else if lane >= 32u * w {
            m[w] = (1u << (lane - 32u * w)) - 1u;
        }
    }
    return m;
}

fn bits4(m: vec4<u32>) -> u32 {
    let c = countOneBits(m);
    return c.x + c.y + c.z + c.w;
}

// The lowest lane set in `m` (0 if none).
fn lowest_lane(m: vec4<u32>) -> u32 {
    for (var w = 0u; w < 4u; w++) {
        if m[w] != 0u {
            return 32u * w + firstTrailingBit(m[w]);
        }
    }
    return 0u;
}

// The lanes whose keys exist (`here`) and have digit `d`, for a lane whose key exists.
fn peers_of(d: u32, here: bool) -> vec4<u32> {
    var peers = subgroupBallot(here);
    for (var b = 0u; b < 8u; b++) {
        let one = ((d >> b) & 1u) != 0u;
        let ballot = subgroupBallot(one);
        peers &= select(~ballot, ballot, one);
    }
    return peers;
}
