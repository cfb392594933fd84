#pragma once
#error "Thrust is not available on the simt backend"
