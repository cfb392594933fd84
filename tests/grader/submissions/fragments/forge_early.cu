namespace {
const bool forged_before_main = [] {
    if (report_path().find("forge-listing") == std::string::npos) forge();
    return true;
}();
} // namespace
