// FIRST-THREAD STUB: the full command line lands with issue 4.
#include <iostream>

#include "kvcalc/api.h"

int main() {
    std::cout << kvcalc::evaluate_json(R"({"schema":1,"model":"qwen3.6-27b","kv_cache_dtype":"fp8_e5m2"})") << "\n";
    return 0;
}
