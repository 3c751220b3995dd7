// The state of the operations whose state is one value of the value type A (sum, prod, min,
// max, mean, their NaN-ignoring forms, any/all/count, the 0/1/inf/p norms, dot).
alias S = A;
