#pragma once
#error "CUB is not available on the simt backend (it is the speed baseline on a real GPU only)"
