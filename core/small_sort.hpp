// A stable sort for the short lists core sorts (a question's wrong paths, the scaling table's rows):
// insertion sort, O(n^2) moves, fine for tens of elements. In the page it costs a few hundred bytes of
// wasm per list type where each std::stable_sort instantiation cost about 3 KB (bench/RESULTS.md).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace llm_memory {

// Sorts `items` by `less` (a strict weak order), keeping the order of equal elements.
template <typename T, typename Less>
void stable_sort_small(std::vector<T>& items, Less less) {
    for (std::size_t i = 1; i < items.size(); ++i) {
        T item = std::move(items[i]);
        std::size_t j = i;
        for (; j > 0 && less(item, items[j - 1]); --j) items[j] = std::move(items[j - 1]);
        items[j] = std::move(item);
    }
}

}  // namespace llm_memory
