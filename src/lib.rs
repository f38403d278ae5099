//! dapvisor
