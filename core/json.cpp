// The JSON reader: a lexer that counts bytes read exactly as nlohmann/json's does (a read past the end
// counts one, a byte looked at and put back does not), and a recursive-descent parser over its tokens.
// Error positions are the lexer's count when reading stopped, so they match the old reader's.
#include "json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace llm_memory {

double JsonValue::number() const {
    switch (kind_) {
        case Kind::unsigned_number: return static_cast<double>(unsigned_);
        case Kind::signed_number: return static_cast<double>(signed_);
        case Kind::float_number: return float_;
        default: return 0;
    }
}

namespace {

// Byte-wise key order (std::string's): written out because std::string_view's compare subtracts the
// lengths with a wrap-around the fuzz build's unsigned-overflow check reports.
int compare_keys(std::string_view a, std::string_view b) {
    const std::size_t common = a.size() < b.size() ? a.size() : b.size();
    const int bytes = common == 0 ? 0 : std::memcmp(a.data(), b.data(), common);
    if (bytes != 0) return bytes;
    return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

}  // namespace

const JsonValue* JsonValue::find(std::string_view key) const {
    const auto it = std::lower_bound(members_.begin(), members_.end(), key,
                                     [](const JsonMember& m, std::string_view k) { return compare_keys(m.key, k) < 0; });
    return it != members_.end() && it->key == key ? &it->value : nullptr;
}

class JsonParser {
public:
    explicit JsonParser(std::string_view text) : text_(text) {}

    JsonDocument run() {
        JsonDocument doc;
        // A UTF-8 byte-order mark is skipped; a broken one is an error where it breaks.
        if (get() == 0xEF) {
            if (get() != 0xBB || get() != 0xBF) return failed();
        } else {
            unget();
        }
        scan();
        if (!parse_value(doc.value, 0)) return failed();
        if (scan() != Token::end_of_input) return failed();
        return doc;
    }

private:
    enum class Token {
        begin_array, end_array, begin_object, end_object, name_separator, value_separator, string,
        unsigned_number, signed_number, float_number, literal_true, literal_false, literal_null, end_of_input, error
    };
    static constexpr int kEnd = -1;

    std::string_view text_;
    std::size_t read_ = 0;  // bytes read; the current byte is text_[read_ - 1]
    int current_ = kEnd;
    Token token_ = Token::error;
    std::string string_;  // the last string token, unescaped
    std::uint64_t unsigned_ = 0;
    std::int64_t signed_ = 0;
    double float_ = 0;

    JsonDocument failed() const {
        JsonDocument doc;
        doc.error_position = read_;
        return doc;
    }

    int get() {
        ++read_;
        current_ = read_ <= text_.size() ? static_cast<unsigned char>(text_[read_ - 1]) : kEnd;
        return current_;
    }
    void unget() { --read_; }

    Token scan() {
        do get();
        while (current_ == ' ' || current_ == '\t' || current_ == '\n' || current_ == '\r');
        switch (current_) {
            case '[': return token_ = Token::begin_array;
            case ']': return token_ = Token::end_array;
            case '{': return token_ = Token::begin_object;
            case '}': return token_ = Token::end_object;
            case ':': return token_ = Token::name_separator;
            case ',': return token_ = Token::value_separator;
            case 't': return token_ = scan_literal("true", Token::literal_true);
            case 'f': return token_ = scan_literal("false", Token::literal_false);
            case 'n': return token_ = scan_literal("null", Token::literal_null);
            case '"': return token_ = scan_string();
            case '\0':
            case kEnd: return token_ = Token::end_of_input;
            default:
                if (current_ == '-' || (current_ >= '0' && current_ <= '9')) return token_ = scan_number();
                return token_ = Token::error;
        }
    }

    Token scan_literal(const char* literal, Token kind) {
        for (const char* p = literal + 1; *p != '\0'; ++p)
            if (get() != *p) return Token::error;
        return kind;
    }

    // Four hex digits after \u, or -1 at the first byte that is not one.
    int hex4() {
        int value = 0;
        for (int i = 0; i < 4; ++i) {
            const int c = get();
            int digit = 0;
            if (c >= '0' && c <= '9') digit = c - '0';
            else if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
            else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
            else return -1;
            value = value * 16 + digit;
        }
        return value;
    }

    void add_utf8(int codepoint) {
        const auto cp = static_cast<unsigned>(codepoint);
        if (cp < 0x80) {
            string_ += static_cast<char>(cp);
        } else if (cp <= 0x7FF) {
            string_ += static_cast<char>(0xC0 | (cp >> 6));
            string_ += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp <= 0xFFFF) {
            string_ += static_cast<char>(0xE0 | (cp >> 12));
            string_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            string_ += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            string_ += static_cast<char>(0xF0 | (cp >> 18));
            string_ += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            string_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            string_ += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    // The continuation bytes of one UTF-8 sequence: `ranges` holds [low, high] per byte (RFC 3629 table 3-7).
    bool continuation(std::initializer_list<int> ranges) {
        string_ += static_cast<char>(current_);
        for (auto it = ranges.begin(); it != ranges.end(); it += 2) {
            const int c = get();
            if (c < it[0] || c > it[1]) return false;
            string_ += static_cast<char>(c);
        }
        return true;
    }

    Token scan_string() {
        string_.clear();
        for (;;) {
            const int c = get();
            if (c == '"') return Token::string;
            if (c == kEnd || c < 0x20) return Token::error;  // unterminated, or an unescaped control byte
            if (c == '\\') {
                switch (get()) {
                    case '"': string_ += '"'; break;
                    case '\\': string_ += '\\'; break;
                    case '/': string_ += '/'; break;
                    case 'b': string_ += '\b'; break;
                    case 'f': string_ += '\f'; break;
                    case 'n': string_ += '\n'; break;
                    case 'r': string_ += '\r'; break;
                    case 't': string_ += '\t'; break;
                    case 'u': {
                        int codepoint = hex4();
                        if (codepoint < 0) return Token::error;
                        if (codepoint >= 0xD800 && codepoint <= 0xDBFF) {  // a high surrogate: its low half must follow
                            if (get() != '\\' || get() != 'u') return Token::error;
                            const int low = hex4();
                            if (low < 0xDC00 || low > 0xDFFF) return Token::error;
                            codepoint = 0x10000 + ((codepoint - 0xD800) << 10) + (low - 0xDC00);
                        } else if (codepoint >= 0xDC00 && codepoint <= 0xDFFF) {
                            return Token::error;
                        }
                        add_utf8(codepoint);
                        break;
                    }
                    default: return Token::error;
                }
                continue;
            }
            if (c < 0x80) string_ += static_cast<char>(c);
            else if (c >= 0xC2 && c <= 0xDF) { if (!continuation({0x80, 0xBF})) return Token::error; }
            else if (c == 0xE0) { if (!continuation({0xA0, 0xBF, 0x80, 0xBF})) return Token::error; }
            else if (c == 0xED) { if (!continuation({0x80, 0x9F, 0x80, 0xBF})) return Token::error; }
            else if (c >= 0xE1 && c <= 0xEF) { if (!continuation({0x80, 0xBF, 0x80, 0xBF})) return Token::error; }
            else if (c == 0xF0) { if (!continuation({0x90, 0xBF, 0x80, 0xBF, 0x80, 0xBF})) return Token::error; }
            else if (c >= 0xF1 && c <= 0xF3) { if (!continuation({0x80, 0xBF, 0x80, 0xBF, 0x80, 0xBF})) return Token::error; }
            else if (c == 0xF4) { if (!continuation({0x80, 0x8F, 0x80, 0xBF, 0x80, 0xBF})) return Token::error; }
            else return Token::error;  // 0x80-0xC1, 0xF5-0xFF never start a sequence
        }
    }

    static bool digit(int c) { return c >= '0' && c <= '9'; }

    // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; the byte after the number is put back.
    Token scan_number() {
        const std::size_t start = read_ - 1;
        const bool negative = current_ == '-';
        bool whole = true;
        if (negative && !digit(get())) return Token::error;
        if (current_ != '0')
            while (digit(get())) {}
        else
            get();
        if (current_ == '.') {
            whole = false;
            if (!digit(get())) return Token::error;
            while (digit(get())) {}
        }
        if (current_ == 'e' || current_ == 'E') {
            whole = false;
            get();
            if (current_ == '+' || current_ == '-') get();
            if (!digit(current_)) return Token::error;
            while (digit(get())) {}
        }
        unget();
        const std::string_view written = text_.substr(start, read_ - start);
        if (whole) {
            // Exact while it fits: unsigned below 2^64, signed from -2^63 (beyond: a double, as strtoull/strtoll overflow).
            std::uint64_t magnitude = 0;
            bool fits = true;
            for (std::size_t i = negative ? 1 : 0; i < written.size() && fits; ++i) {
                const auto d = static_cast<std::uint64_t>(written[i] - '0');
                if (magnitude > (UINT64_MAX - d) / 10) fits = false;
                else magnitude = magnitude * 10 + d;
            }
            if (fits && !negative) {
                unsigned_ = magnitude;
                return Token::unsigned_number;
            }
            if (fits && magnitude <= static_cast<std::uint64_t>(INT64_MAX) + 1) {
                signed_ = magnitude == static_cast<std::uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<std::int64_t>(magnitude);
                return Token::signed_number;
            }
        }
        const std::string terminated(written);
        float_ = std::strtod(terminated.c_str(), nullptr);
        return Token::float_number;
    }

    // Sorts an object's members by key and keeps the last of repeated keys. The order is (key, position
    // written), so it is stable; libc's qsort (already linked for ImGui) over pointers costs a few hundred
    // bytes of wasm where std::stable_sort cost 3 KB.
    static void sort_members(std::vector<JsonMember>& members) {
        if (members.size() < 2) return;  // sorted and unique already (and qsort must not get an empty array's null)
        std::vector<JsonMember*> order(members.size());
        for (std::size_t i = 0; i < members.size(); ++i) order[i] = &members[i];
        std::qsort(order.data(), order.size(), sizeof(JsonMember*), [](const void* a, const void* b) {
            const JsonMember* x = *static_cast<JsonMember* const*>(a);
            const JsonMember* y = *static_cast<JsonMember* const*>(b);
            const int by_key = compare_keys(x->key, y->key);
            return by_key != 0 ? by_key : (x < y ? -1 : 1);
        });
        std::vector<JsonMember> sorted;
        sorted.reserve(order.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            if (i + 1 == order.size() || order[i + 1]->key != order[i]->key) sorted.push_back(std::move(*order[i]));
        members = std::move(sorted);
    }

    // Parses the value whose first token is token_; false at the first error (read_ says where).
    bool parse_value(JsonValue& out, std::size_t depth) {
        switch (token_) {
            case Token::begin_array: {
                if (depth >= kMaxJsonDepth) return false;
                out.kind_ = JsonValue::Kind::array;
                if (scan() == Token::end_array) return true;
                for (;;) {
                    out.items_.emplace_back();
                    if (!parse_value(out.items_.back(), depth + 1)) return false;
                    if (scan() == Token::end_array) return true;
                    if (token_ != Token::value_separator) return false;
                    scan();
                }
            }
            case Token::begin_object: {
                if (depth >= kMaxJsonDepth) return false;
                out.kind_ = JsonValue::Kind::object;
                std::vector<JsonMember>& members = out.members_;
                if (scan() != Token::end_object) {
                    for (;;) {
                        if (token_ != Token::string) return false;
                        members.push_back(JsonMember{string_, JsonValue()});
                        if (scan() != Token::name_separator) return false;
                        scan();
                        if (!parse_value(members.back().value, depth + 1)) return false;
                        if (scan() == Token::end_object) break;
                        if (token_ != Token::value_separator) return false;
                        scan();
                    }
                }
                sort_members(members);
                return true;
            }
            case Token::string:
                out.kind_ = JsonValue::Kind::string;
                out.text_ = string_;
                return true;
            case Token::unsigned_number:
                out.kind_ = JsonValue::Kind::unsigned_number;
                out.unsigned_ = unsigned_;
                return true;
            case Token::signed_number:
                out.kind_ = JsonValue::Kind::signed_number;
                out.signed_ = signed_;
                return true;
            case Token::float_number:
                if (!std::isfinite(float_)) return false;  // 1e400: too large for a double
                out.kind_ = JsonValue::Kind::float_number;
                out.float_ = float_;
                return true;
            case Token::literal_true:
            case Token::literal_false:
                out.kind_ = JsonValue::Kind::boolean;
                out.unsigned_ = token_ == Token::literal_true ? 1 : 0;
                return true;
            case Token::literal_null:
                out.kind_ = JsonValue::Kind::null;
                return true;
            default:
                return false;  // a lexer error, or a token that cannot start a value
        }
    }
};

JsonDocument parse_json(std::string_view text) { return JsonParser(text).run(); }

}  // namespace llm_memory
