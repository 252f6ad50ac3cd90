"""Seeded tests for mxfp4-quantize: blocks whose elements sit exactly on the E2M1 rounding
ties (and a hair either side of them), block maxima on and just below powers of two, the
saturating range [6, 8) of the scaled maximum, zero blocks, and the exponent bounds."""

TIES = [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 7.0]  # halfway between E2M1 neighbours
GRID = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
EPS = 2.0 ** -40  # far below float64's spacing of concern, far above float32's resolution


def _near_below_two(k):
    """The largest float64 below 2**k: log2 of it rounds to k."""
    return 2.0 ** k * (1 - 2.0 ** -53)


def _value(rng, e):
    """One element of a block with shared exponent e: a tie, a grid point, or a hair off a
    tie, scaled by 2**e, with a random sign."""
    kind = rng.random()
    if kind < 0.4:
        t = rng.choice(TIES)
    elif kind < 0.6:
        t = rng.choice(GRID)
    elif kind < 0.8:
        t = rng.choice(TIES) * (1 + rng.choice([EPS, -EPS]))
    else:
        t = rng.uniform(0, 6)
    value = t * 2.0 ** e
    if value < 2.0 ** -125:  # below the smallest non-zero magnitude allowed
        value = 0.0
    return rng.choice([1.0, -1.0]) * value


def tie_blocks(rng, count, blocks, low, high):
    """Vectors of whole blocks; each block's maximum is chosen (4, 6, a tie in [4, 8), or
    just below 8, times 2**e) so its shared exponent is e, and the rest sit on ties."""
    cases = []
    for _ in range(count):
        x = []
        for _ in range(rng.randint(1, blocks)):
            e = rng.randint(low, high)
            block = [_value(rng, e) for _ in range(31)]
            top = rng.choice([4.0, 6.0, 5.0, 7.0, 8 * (1 - 2.0 ** -53), 7.5, 4 * (1 + EPS)])
            block.insert(rng.randrange(32), rng.choice([1.0, -1.0]) * top * 2.0 ** e)
            x += block
        cases.append([x[: len(x) - rng.choice([0, 0, 1, 13, 31])] or [0.0]])
    return cases


def random_vectors(rng, count, n, spread):
    """Random magnitudes over 2**-spread .. 2**spread, with zeros; any length."""
    cases = []
    for _ in range(count):
        m = rng.randint(0, n) if n <= 200 else n
        x = []
        for _ in range(m):
            if rng.random() < 0.1:
                x.append(0.0)
            else:
                x.append(rng.choice([1.0, -1.0]) * rng.uniform(1, 2) * 2.0 ** rng.randint(-spread, spread - 1))
        cases.append([x])
    return cases


def bounds(rng):
    """The extremes: the smallest and largest magnitudes allowed (2**-125, just under
    2**120), maxima a hair below a power of two, an all-zero block between others, every
    length around a block boundary, and 10**5 elements."""
    lo, hi = 2.0 ** -125, _near_below_two(120)
    cases = [
        [[lo] * 32 + [-lo, lo * 1.5, lo * 1.25, lo * 0.75 * 4]],
        [[hi, -hi, hi / 2, hi / 4, hi / 8, hi / 16, hi / 3, -hi / 7]],
        [[lo, hi, 0.0]],
        [[_near_below_two(k) for k in range(-100, 101, 7)]],
        [[-_near_below_two(3), 3.5, 2.5, 1.75, 1.25, 0.75, 0.25, 0.2500000001]],
        [[1.0] * 32 + [0.0] * 32 + [-6.0] * 32],
    ]
    for n in (31, 32, 33, 63, 64, 65):
        cases.append([[rng.choice([0.25, 0.75, 1.25, 7.0, -3.5, 0.0]) * 2.0 ** (n % 5) for _ in range(n)]])
    big = [rng.choice([1.0, -1.0]) * rng.uniform(0, 8) * 2.0 ** rng.randint(-110, 110)
           for _ in range(100000)]
    cases.append([big])
    return cases
