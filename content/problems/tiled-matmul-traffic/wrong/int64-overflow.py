# expect: wrong_answer
# Computes in numpy int64: at the largest sizes with 1 x 1 tiles the answer is about
# 1.6e19, past 2^63, and the product wraps around.
import numpy as np
def global_read_bytes(M, N, K, TM, TN, TK, elem_bytes):
    M, N, K = np.int64(M), np.int64(N), np.int64(K)
    br = (M + TM - 1) // TM
    bc = (N + TN - 1) // TN
    return int((M * K * bc + K * N * br) * elem_bytes)
