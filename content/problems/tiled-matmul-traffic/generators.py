"""Seeded tests for tiled-matmul-traffic: GEMM shapes from small to LLM-sized, with tile
sizes that rarely divide them, so most grids have partial edge tiles."""


def shapes(rng, count, largest):
    cases = []
    for _ in range(count):
        M, N, K = (rng.randint(1, largest) for _ in range(3))
        TM, TN = rng.choice([16, 32, 64, 128, 256, 48, 96]), rng.choice([16, 32, 64, 128, 256, 80])
        TK = rng.choice([8, 16, 32, 64])
        cases.append([M, N, K, TM, TN, TK, rng.choice([1, 2, 4])])
    return cases
