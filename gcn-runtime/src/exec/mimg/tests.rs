//! MIMG tests.
