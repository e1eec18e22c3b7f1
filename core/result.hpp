// Expected<T>: a value or a human-readable error message, never an exception.
// Every fallible core function returns one, so native, CLI and wasm behave the same
// (Emscripten disables exception catching by default).
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace llm_memory {

// An error carried as a value: a message that names the field and the problem.
struct Error {
    std::string message;
};

template <class T>
class Expected {
public:
    Expected(T value) : value_(std::move(value)) {}          // NOLINT: implicit on purpose
    Expected(Error error) : error_(std::move(error.message)) {}  // NOLINT: implicit on purpose

    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    // The value; only call when ok().
    const T& value() const { return *value_; }
    T& value() { return *value_; }
    const T& operator*() const { return *value_; }
    const T* operator->() const { return &*value_; }
    // The message; empty when ok().
    const std::string& error() const { return error_; }

private:
    std::optional<T> value_;
    std::string error_;
};

}  // namespace llm_memory
