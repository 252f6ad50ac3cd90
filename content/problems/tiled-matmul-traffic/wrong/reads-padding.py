# expect: wrong_answer
# Charges every edge tile as if it were full (TM x TK and TK x TN), counting the
# out-of-bounds padding as traffic; the kernel masks those loads and reads nothing there.
def global_read_bytes(M, N, K, TM, TN, TK, elem_bytes):
    block_rows = (M + TM - 1) // TM
    block_cols = (N + TN - 1) // TN
    k_steps = (K + TK - 1) // TK
    per_block = k_steps * (TM * TK + TK * TN)
    return block_rows * block_cols * per_block * elem_bytes
