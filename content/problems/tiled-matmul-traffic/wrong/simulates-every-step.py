# expect: time_limit_exceeded
# Simulates the kernel: every block, every K step, adding up the in-bounds part of the A and
# B tiles it loads. The count is right, but the loop runs ceil(M/TM) * ceil(N/TN) *
# ceil(K/TK) times, billions for the large sizes.
def global_read_bytes(M, N, K, TM, TN, TK, elem_bytes):
    total = 0
    for i0 in range(0, M, TM):
        rows = min(TM, M - i0)
        for j0 in range(0, N, TN):
            cols = min(TN, N - j0)
            for k0 in range(0, K, TK):
                depth = min(TK, K - k0)
                total += rows * depth + depth * cols
    return total * elem_bytes
