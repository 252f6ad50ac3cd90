# expect: rule_violation
# Calls NumPy's power function: the same library power the statement forbids as pow().
import numpy as np


def my_pow(x, n):
    return float(np.power(x, float(n)))
