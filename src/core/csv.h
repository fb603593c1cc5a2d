#pragma once
// The one CSV field quoter every CSV writer of fftscope uses.

#include <string>

namespace fftscope {

/// `s` as one CSV field (RFC 4180): as it is, or in double quotes with inner quotes doubled when
/// it holds a comma, a quote or a line break (kernel names such as "fast_rows(L=8960; ...)" and
/// notes may).
std::string csv_field(const std::string& s);

}  // namespace fftscope
