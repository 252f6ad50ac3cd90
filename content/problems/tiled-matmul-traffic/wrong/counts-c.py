# expect: wrong_answer
# Also counts reading C (beta * C, as if accumulating into an existing matrix). C = A·B only
# writes C, and writes are not reads.
def global_read_bytes(M, N, K, TM, TN, TK, elem_bytes):
    block_rows = (M + TM - 1) // TM
    block_cols = (N + TN - 1) // TN
    return (M * K * block_cols + K * N * block_rows + M * N) * elem_bytes
