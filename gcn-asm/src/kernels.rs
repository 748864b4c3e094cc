//! What a binary holds, as a user asks for it: the kind of file, the GPU
//! it is for, and each kernel with its arguments (`gcndisasm --kernels`;
//! `gcnrun FILE` prints the same from a loaded program).

use std::fmt;

use crate::gallium::ArgSemantic;

/// One argument a caller passes (hidden and dispatcher-filled arguments
/// are left out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgSummary {
    /// The argument's name (`arg0` … where the binary records none).
    pub name: String,
    /// Its kind (`global_buffer`, `by_value`, … for a code object; the
    /// `.arg` kind, `global`, `scalar`, …, for a Gallium binary).
    pub kind: String,
    /// Its source type where the binary records one (`float*`).
    pub ty: Option<String>,
    /// Bytes it takes in the kernel arguments.
    pub size: u32,
}

/// One kernel and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelSummary {
    /// The kernel's name.
    pub name: String,
    /// The arguments a caller passes, in order.
    pub args: Vec<ArgSummary>,
}

/// A binary's kernels and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSummary {
    /// What the file is and the GPU it is for ("an AMDHSA code object v4
    /// for gfx906 (GCN1.4.1)").
    pub what: String,
    /// Its kernels.
    pub kernels: Vec<KernelSummary>,
}

/// Reads a GalliumCompute binary or an AMDHSA code object and lists its
/// kernels; the error says why the file is neither.
pub fn summarize(bytes: &[u8]) -> Result<FileSummary, String> {
    if crate::rocm::is_code_object(bytes) {
        let co = crate::rocm::read(bytes).map_err(|e| e.to_string())?;
        let kernels = co
            .kernels
            .iter()
            .map(|k| KernelSummary {
                name: k.name.clone(),
                args: k
                    .args
                    .iter()
                    .filter(|a| !a.value_kind.is_hidden())
                    .enumerate()
                    .map(|(i, a)| ArgSummary {
                        name: a.name.clone().unwrap_or_else(|| format!("arg{i}")),
                        kind: a
                            .value_kind
                            .v3_name()
                            .map_or_else(|| format!("{:?}", a.value_kind), str::to_string),
                        ty: a.type_name.clone(),
                        size: a.size,
                    })
                    .collect(),
            })
            .collect();
        return Ok(FileSummary {
            what: format!(
                "an AMDHSA code object v{} for {} ({})",
                co.code_object_version, co.processor.name, co.processor.version
            ),
            kernels,
        });
    }
    let binary = crate::gallium::read(bytes)
        .map_err(|e| format!("neither an AMDHSA code object nor a GalliumCompute binary: {e}"))?;
    let kernels = binary
        .kernels
        .iter()
        .map(|k| KernelSummary {
            name: k.name.clone(),
            args: k
                .args
                .iter()
                .filter(|a| a.semantic == ArgSemantic::General)
                .enumerate()
                .map(|(i, a)| ArgSummary {
                    name: format!("arg{i}"),
                    kind: a.ty.name().to_string(),
                    ty: None,
                    size: a.size,
                })
                .collect(),
        })
        .collect();
    Ok(FileSummary {
        what: "a GalliumCompute binary (it records no GPU: give one with -g)".to_string(),
        kernels,
    })
}

impl fmt::Display for FileSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}; {} kernel{}",
            self.what,
            self.kernels.len(),
            if self.kernels.len() == 1 { "" } else { "s" }
        )?;
        for k in &self.kernels {
            writeln!(f, "kernel '{}'", k.name)?;
            if k.args.is_empty() {
                writeln!(f, "  (no arguments)")?;
            }
            for (i, a) in k.args.iter().enumerate() {
                let ty = a.ty.as_deref().map(|t| format!("{t} ")).unwrap_or_default();
                writeln!(
                    f,
                    "  ARG {i}: {:<8} {ty}({}, {} bytes)",
                    a.name, a.kind, a.size
                )?;
            }
        }
        Ok(())
    }
}
