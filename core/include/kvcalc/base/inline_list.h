// InlineList: a short list of plain values held inside its owner, for the lists predict() fills per call.
#pragma once
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace kvcalc {

/// Up to N values of a trivially copyable T live in the object itself (copied as bytes into storage that is never
/// zeroed: a Report is made per predict(), and a heap list or zeroed storage cost more than the values); more go to
/// the heap. Iterates like a vector.
template <class T, std::size_t N>
class InlineList {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
    static constexpr std::size_t kInline = N;
    InlineList() = default;
    InlineList(const InlineList& other) { assign(other.data(), other.size_); }
    InlineList& operator=(const InlineList& other) {
        if (this != &other) assign(other.data(), other.size_);
        return *this;
    }
    /// Replaces the values with a copy of `values`.
    void assign(const std::vector<T>& values) { assign(values.data(), values.size()); }
    /// Removes every value.
    void clear() {
        heap_.clear();
        size_ = 0;
    }
    /// Appends T{args...} (built in place while the list is inline).
    template <class... Args>
    void emplace_back(Args&&... args) {
        if (size_ < N) {
            ::new (static_cast<void*>(bytes_ + size_ * sizeof(T))) T{std::forward<Args>(args)...};
            ++size_;
        } else {
            push_back(T{std::forward<Args>(args)...});
        }
    }
    void push_back(const T& x) {
        if (size_ < N) {
            std::memcpy(bytes_ + size_ * sizeof(T), &x, sizeof(T));
        } else {
            if (size_ == N) heap_.assign(data(), data() + N);  // the N + 1st value: the list moves to the heap
            heap_.push_back(x);
        }
        ++size_;
    }
    T* begin() { return data(); }
    T* end() { return data() + size_; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + size_; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](std::size_t i) { return data()[i]; }
    const T& operator[](std::size_t i) const { return data()[i]; }

private:
    // The values are on the heap exactly when there are more than N of them.
    void assign(const T* values, std::size_t n) {
        if (n > N) {
            heap_.assign(values, values + n);
        } else {
            heap_.clear();
            if (n > 0) std::memcpy(bytes_, values, n * sizeof(T));
        }
        size_ = n;
    }
    T* data() { return size_ > N ? heap_.data() : std::launder(reinterpret_cast<T*>(bytes_)); }
    const T* data() const { return size_ > N ? heap_.data() : std::launder(reinterpret_cast<const T*>(bytes_)); }
    alignas(T) unsigned char bytes_[N * sizeof(T)];
    std::vector<T> heap_;
    std::size_t size_ = 0;
};

}  // namespace kvcalc
