//! Tests of the f16, packed and dot-product rows.

use super::*;
