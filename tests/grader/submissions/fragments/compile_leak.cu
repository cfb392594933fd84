#include "/etc/passwd"
#if __has_include("@REPO@/grading/hidden/lab01_naive_hidden_test.cpp")
#include "@REPO@/grading/hidden/lab01_naive_hidden_test.cpp"
#endif
