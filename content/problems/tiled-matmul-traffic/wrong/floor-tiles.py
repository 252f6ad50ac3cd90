# expect: wrong_answer
# Counts the blocks with floor division (M // TM, N // TN): the partial tiles at the right
# and bottom edges are forgotten, and a matrix smaller than one tile reads nothing at all.
def global_read_bytes(M, N, K, TM, TN, TK, elem_bytes):
    return (M * K * (N // TN) + K * N * (M // TM)) * elem_bytes
