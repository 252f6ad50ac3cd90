# expect: time_limit_exceeded
# Loops over the block rows and the block columns, adding each strip's reads: right, but
# O(M/TM + N/TN), two million iterations when the tiles are 1 x 1.
def global_read_bytes(M, N, K, TM, TN, TK, elem_bytes):
    total = 0
    bc = 0
    for j0 in range(0, N, TN):
        bc += 1
    br = 0
    for i0 in range(0, M, TM):
        br += 1
    for i0 in range(0, M, TM):
        total += min(TM, M - i0) * K * bc
    for j0 in range(0, N, TN):
        total += min(TN, N - j0) * K * br
    return total * elem_bytes
