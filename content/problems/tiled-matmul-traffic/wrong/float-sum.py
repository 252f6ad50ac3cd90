# expect: wrong_answer
# Mixes a float into the sum: near 1.6e19 a double holds integers only to a multiple of
# 2048, so the byte count is rounded.
import math
def global_read_bytes(M, N, K, TM, TN, TK, elem_bytes):
    return int(M * K * math.ceil(N / TN) * elem_bytes + K * N * math.ceil(M / TM) * elem_bytes * 1.0)
