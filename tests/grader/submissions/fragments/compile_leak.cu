#include "/etc/passwd"
#include "@REPO@/grading/hidden/lab01_naive_hidden_test.cpp"
