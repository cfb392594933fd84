#include "@FIFO@"
