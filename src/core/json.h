#pragma once
// The one JSON string quoter every JSON writer of fftscope uses.

#include <string>

namespace fftscope {

/// `s` as a quoted JSON string, with quotes, backslashes and control characters escaped.
std::string json_string(const std::string& s);

}  // namespace fftscope
