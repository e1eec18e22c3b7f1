// Expected<T>: a value or a human-readable error message, never an exception.
// Every fallible core function returns one, so native, CLI and wasm behave the same
// (Emscripten disables exception catching by default).
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace llm_memory {

// An error carried as a value: the setting or field it is about (as the CLI spells it, "" when it names
// none) and the problem without the key. message() is what people read: "batch: is too large (at most
// 1,000,000)". Code that shows the problem next to its own control reads key and problem, never the text.
struct Error {
    std::string key;      // "batch"; "" when the error is about no one setting
    std::string problem;  // "is too large (at most 1,000,000)"
    Error(std::string message) : problem(std::move(message)) {}  // NOLINT: implicit, an error without a key
    Error(std::string setting_key, std::string problem_text) : key(std::move(setting_key)), problem(std::move(problem_text)) {}
    Error(const char* message) : problem(message) {}  // NOLINT: implicit
    std::string message() const { return key.empty() ? problem : key + ": " + problem; }
    // The error where `named` is already said (a file's path, the answer's own field): the problem alone when
    // the error is about `named`, else the whole message ("hidden_size: must be ..." stays whole).
    std::string message_without(const char* named) const { return key == named ? problem : message(); }
};

// Success, or the error of a step that returns no value.
using Status = std::optional<Error>;

template <class T>
class Expected {
public:
    Expected(T value) : value_(std::move(value)) {}  // NOLINT: implicit on purpose
    Expected(Error error) : failure_(std::move(error)), message_(failure_.message()) {}  // NOLINT: implicit on purpose

    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    // The value; only call when ok().
    const T& value() const { return *value_; }
    T& value() { return *value_; }
    const T& operator*() const { return *value_; }
    const T* operator->() const { return &*value_; }
    // The message ("key: problem"); empty when ok().
    const std::string& error() const { return message_; }
    // The error with its key and problem apart; only meaningful when !ok().
    const Error& failure() const { return failure_; }

private:
    std::optional<T> value_;
    Error failure_{std::string()};
    std::string message_;
};

}  // namespace llm_memory
