// A minimal RAII device array for the emulator's own tests (both backends).
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

template <class T>
class DeviceVector {
  public:
    explicit DeviceVector(size_t n) : n_(n) { check(cudaMalloc(&p_, n * sizeof(T)), "cudaMalloc"); }
    explicit DeviceVector(const std::vector<T>& host) : DeviceVector(host.size()) {
        check(cudaMemcpy(p_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    DeviceVector(const DeviceVector&) = delete;
    DeviceVector& operator=(const DeviceVector&) = delete;
    ~DeviceVector() { cudaFree(p_); }
    T* data() const { return p_; }
    std::vector<T> download() const {
        std::vector<T> host(n_);
        check(cudaMemcpy(host.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
        return host;
    }

  private:
    static void check(cudaError_t e, const char* what) {
        if (e != cudaSuccess)
            throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
    }
    T* p_ = nullptr;
    size_t n_;
};
