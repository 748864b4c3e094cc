//! Tests of the f32/f64 vector ALU handlers.
