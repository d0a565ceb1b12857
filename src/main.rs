fn main() {
    std::process::exit(microfut::cli::main());
}
