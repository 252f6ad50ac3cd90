# expect: wrong_answer
# Builds and returns a rotated copy but leaves the caller's matrix unchanged.
def rotate(matrix: list[list[int]]) -> None:
    n = len(matrix)
    matrix = [[matrix[n - 1 - j][i] for j in range(n)] for i in range(n)]
    return matrix
