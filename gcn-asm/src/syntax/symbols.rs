//! Symbols, visibility scopes and local labels.
//!
//! Symbols live in one arena ([`SymbolTable::syms`]) and are named through
//! per-scope maps, so an expression keeps a [`SymId`] and never needs the
//! name again. A symbol that has been captured by a deferred expression is
//! never overwritten in place: redefining it creates a fresh arena entry, so
//! the deferred expression keeps the value the symbol had first (CLRX
//! resolves such expressions as soon as the symbol is defined).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use crate::diag::SourcePos;
use crate::encode::context::{RegisterSymbol, Value};

use super::expr::Op;

/// A small, fast, non-cryptographic hasher (the FxHash function used by
/// rustc): symbol names are short and not attacker-controlled in a way that
/// matters for an assembler, so speed wins over DoS resistance.
#[derive(Debug, Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A `HashMap` using [`FxHasher`].
pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// Index of a symbol in [`SymbolTable::syms`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SymId(pub u32);

/// Index of a scope in [`SymbolTable::scopes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScopeId(pub u32);

/// The global scope.
pub const GLOBAL_SCOPE: ScopeId = ScopeId(0);

/// How a symbol got its value, which decides whether it may be redefined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymKind {
    /// `sym = expr`, `.set`, `.equ`: redefinable.
    Plain,
    /// A label: never redefinable.
    Label,
    /// `.equiv`, `.enum`: defined once.
    Once,
    /// `.eqv`: defined once, evaluated at every use.
    Eqv,
}

/// The value of a symbol.
#[derive(Debug, Clone)]
pub enum SymState {
    /// Not defined (yet).
    Undefined,
    /// Known value.
    Known(Value),
    /// Depends on symbols not known when it was assigned.
    Pending(Rc<[Op]>),
    /// Being resolved (cycle detection).
    Resolving,
    /// A register range or constant (`sym = %s[0:1]`).
    Register(RegisterSymbol),
    /// `.eqv`: the expression, inlined where the symbol is used.
    Eqv(Rc<[Op]>),
}

/// One symbol.
#[derive(Debug, Clone)]
pub struct Symbol {
    /// Name, for diagnostics.
    pub name: Box<str>,
    /// Current value.
    pub state: SymState,
    /// Redefinition rules.
    pub kind: SymKind,
    /// True once a deferred expression refers to this entry.
    pub captured: bool,
    /// Where it was defined.
    pub defined_at: Option<SourcePos>,
}

impl Symbol {
    /// True when the symbol has a definition.
    pub fn is_defined(&self) -> bool {
        !matches!(self.state, SymState::Undefined)
    }
}

/// A visibility scope.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Enclosing scope (`None` for the global scope).
    pub parent: Option<ScopeId>,
    /// Named child scopes.
    pub children: FxMap<Box<str>, ScopeId>,
    /// Symbols by name.
    pub symbols: FxMap<Box<str>, SymId>,
    /// Scopes made visible with `.using`, in declaration order.
    pub usings: Vec<ScopeId>,
    /// Counter of `.enum`.
    pub enum_counter: i64,
}

/// All symbols and scopes of one assembly.
#[derive(Debug, Clone)]
pub struct SymbolTable {
    /// Symbol arena.
    pub syms: Vec<Symbol>,
    /// Scope arena; index 0 is the global scope.
    pub scopes: Vec<Scope>,
    /// The innermost open scope.
    pub current: ScopeId,
    /// Open scopes below `current` (restored by `.ends`).
    pub scope_stack: Vec<ScopeId>,
    /// Local labels: number to (last defined, pending forward reference).
    pub locals: FxMap<u64, (Option<SymId>, Option<SymId>)>,
    /// The address of each section (by [`crate::encode::context::SectionId`])
    /// once the ROCm layout is known: evaluation then turns the addresses
    /// in these sections into numbers, so that section differences resolve.
    /// Empty during the pass.
    pub section_bases: Vec<Option<i64>>,
    /// Sections whose addresses are plain numbers, their offsets (clrxasm's
    /// "absolute addressable" sections: a ROCm source's `.globaldata` and
    /// GOT under `.nosectdiffs`), by section index.
    pub absolute_sections: Vec<bool>,
}

impl SymbolTable {
    /// `v` with its section's address added when [`Self::section_bases`]
    /// knows it (an absolute value then).
    pub fn rebase(&self, v: Value) -> Value {
        if v.section
            .is_some_and(|s| self.absolute_sections.get(s.0 as usize) == Some(&true))
        {
            return Value::absolute(v.value);
        }
        match v
            .section
            .and_then(|s| self.section_bases.get(s.0 as usize).copied().flatten())
        {
            Some(base) => Value::absolute(base.wrapping_add(v.value)),
            None => v,
        }
    }
}

impl Default for SymbolTable {
    fn default() -> Self {
        Self::new()
    }
}

/// Splits a scope path `a::b::c` into the scope part and the last name.
/// Returns (absolute, scope elements text, name).
fn split_path(name: &str) -> (bool, &str, &str) {
    // Most names have no scope path: avoid the substring searcher.
    if !name.as_bytes().contains(&b':') {
        return (false, "", name);
    }
    let (absolute, rest) = match name.strip_prefix("::") {
        Some(rest) => (true, rest),
        None => (false, name),
    };
    match rest.rfind("::") {
        Some(i) => (absolute, &rest[..i], &rest[i + 2..]),
        None => (absolute, "", rest),
    }
}

impl SymbolTable {
    /// An empty table with only the global scope.
    pub fn new() -> Self {
        SymbolTable {
            syms: Vec::new(),
            scopes: vec![Scope::default()],
            current: GLOBAL_SCOPE,
            scope_stack: Vec::new(),
            locals: FxMap::default(),
            section_bases: Vec::new(),
            absolute_sections: Vec::new(),
        }
    }

    /// The symbol `id`.
    pub fn get(&self, id: SymId) -> &Symbol {
        &self.syms[id.0 as usize]
    }

    /// The symbol `id`, mutably.
    pub fn get_mut(&mut self, id: SymId) -> &mut Symbol {
        &mut self.syms[id.0 as usize]
    }

    /// Creates an undefined symbol (not entered in any scope).
    pub fn new_symbol(&mut self, name: &str) -> SymId {
        let id = SymId(self.syms.len() as u32);
        self.syms.push(Symbol {
            name: name.into(),
            state: SymState::Undefined,
            kind: SymKind::Plain,
            captured: false,
            defined_at: None,
        });
        id
    }

    fn child(&self, scope: ScopeId, name: &str) -> Option<ScopeId> {
        self.scopes[scope.0 as usize].children.get(name).copied()
    }

    fn new_child(&mut self, parent: ScopeId, name: &str) -> ScopeId {
        let id = ScopeId(self.scopes.len() as u32);
        self.scopes.push(Scope {
            parent: Some(parent),
            ..Scope::default()
        });
        if !name.is_empty() {
            self.scopes[parent.0 as usize]
                .children
                .insert(name.into(), id);
        }
        id
    }

    /// Resolves a scope path (`a::b`, `::a`, or empty for the current
    /// scope), creating missing scopes when `create` is set.
    pub fn resolve_scope(&mut self, absolute: bool, path: &str, create: bool) -> Option<ScopeId> {
        if path.is_empty() {
            return Some(if absolute { GLOBAL_SCOPE } else { self.current });
        }
        let mut elems = path.split("::");
        let first = elems.next().unwrap_or("");
        let mut scope = if absolute {
            match self.child(GLOBAL_SCOPE, first) {
                Some(s) => s,
                None if create => self.new_child(GLOBAL_SCOPE, first),
                None => return None,
            }
        } else {
            let mut found = None;
            let mut s = Some(self.current);
            while let Some(sc) = s {
                if let Some(c) = self.child(sc, first) {
                    found = Some(c);
                    break;
                }
                s = self.scopes[sc.0 as usize].parent;
            }
            match found {
                Some(f) => f,
                None if create => self.new_child(self.current, first),
                None => return None,
            }
        };
        for elem in elems {
            scope = match self.child(scope, elem) {
                Some(s) => s,
                None if create => self.new_child(scope, elem),
                None => return None,
            };
        }
        Some(scope)
    }

    /// Resolves a scope path without creating anything.
    pub fn find_scope(&self, absolute: bool, path: &str) -> Option<ScopeId> {
        if path.is_empty() {
            return Some(if absolute { GLOBAL_SCOPE } else { self.current });
        }
        let mut elems = path.split("::");
        let first = elems.next().unwrap_or("");
        let mut scope = if absolute {
            self.child(GLOBAL_SCOPE, first)?
        } else {
            let mut s = Some(self.current);
            loop {
                let sc = s?;
                if let Some(c) = self.child(sc, first) {
                    break c;
                }
                s = self.scopes[sc.0 as usize].parent;
            }
        };
        for elem in elems {
            scope = self.child(scope, elem)?;
        }
        Some(scope)
    }

    fn find_in_scope(&self, scope: ScopeId, name: &str, depth: u32) -> Option<SymId> {
        let sc = &self.scopes[scope.0 as usize];
        if let Some(&id) = sc.symbols.get(name) {
            return Some(id);
        }
        if depth > 16 {
            return None;
        }
        for &u in sc.usings.iter().rev() {
            if let Some(id) = self.find_in_scope(u, name, depth + 1) {
                return Some(id);
            }
        }
        None
    }

    /// Finds a symbol by (possibly scoped) name without creating anything.
    pub fn lookup(&self, name: &str) -> Option<SymId> {
        let (absolute, path, simple) = split_path(name);
        if absolute || !path.is_empty() {
            let scope = self.find_scope(absolute, path)?;
            return self.find_in_scope(scope, simple, 0);
        }
        let mut s = Some(self.current);
        while let Some(sc) = s {
            if let Some(id) = self.find_in_scope(sc, simple, 0) {
                return Some(id);
            }
            s = self.scopes[sc.0 as usize].parent;
        }
        None
    }

    /// Finds a symbol for use in an expression, creating an undefined one
    /// (in the current scope or the named scope) when there is none.
    pub fn lookup_or_create(&mut self, name: &str) -> SymId {
        if let Some(id) = self.lookup(name) {
            return id;
        }
        let (scope, simple) = self.target_scope(name);
        self.insert_new(scope, simple)
    }

    /// The symbol a definition of `name` writes to: a simple name is always
    /// in the current scope. Returns the entry, creating it if needed.
    pub fn definition_target(&mut self, name: &str) -> SymId {
        let (scope, simple) = self.target_scope(name);
        match self.scopes[scope.0 as usize].symbols.get(simple) {
            Some(&id) => id,
            None => self.insert_new(scope, simple),
        }
    }

    /// Replaces the entry named `name` in its scope with a fresh undefined
    /// one (used when the old entry is captured by a deferred expression).
    pub fn fresh_definition_target(&mut self, name: &str) -> SymId {
        let (scope, simple) = self.target_scope(name);
        self.insert_new(scope, simple)
    }

    /// The scope a name written as `name` belongs to (its scope path, created
    /// when missing, else the current scope) and its simple name.
    fn target_scope<'n>(&mut self, name: &'n str) -> (ScopeId, &'n str) {
        let (absolute, path, simple) = split_path(name);
        let scope = self
            .resolve_scope(absolute, path, true)
            .unwrap_or(self.current);
        (scope, simple)
    }

    /// Enters a new undefined symbol `simple` in `scope` (replacing any entry
    /// of that name there).
    fn insert_new(&mut self, scope: ScopeId, simple: &str) -> SymId {
        let id = self.new_symbol(simple);
        self.scopes[scope.0 as usize]
            .symbols
            .insert(simple.into(), id);
        id
    }

    /// Opens a scope (`.scope NAME`, temporary when `name` is empty).
    pub fn open_scope(&mut self, name: &str) {
        let scope = if name.is_empty() {
            self.new_child(self.current, "")
        } else {
            match self.child(self.current, name) {
                Some(s) => s,
                None => self.new_child(self.current, name),
            }
        };
        self.scope_stack.push(self.current);
        self.current = scope;
    }

    /// Closes the innermost scope; false when only the global scope is open.
    pub fn close_scope(&mut self) -> bool {
        match self.scope_stack.pop() {
            Some(s) => {
                self.current = s;
                true
            }
            None => false,
        }
    }

    /// The symbol a backward reference `Nb` names.
    pub fn local_backward(&self, n: u64) -> Option<SymId> {
        self.locals.get(&n).and_then(|e| e.0)
    }

    /// The symbol a forward reference `Nf` names (created on first use).
    pub fn local_forward(&mut self, n: u64) -> SymId {
        if let Some(&(_, Some(id))) = self.locals.get(&n) {
            return id;
        }
        let id = self.new_symbol(&format!("{n}f"));
        self.locals.entry(n).or_insert((None, None)).1 = Some(id);
        id
    }

    /// Defines local label `n` and returns the symbol to give the value to.
    pub fn define_local(&mut self, n: u64) -> SymId {
        let pending = self.locals.get(&n).and_then(|e| e.1);
        let id = match pending {
            Some(id) => id,
            None => self.new_symbol(&format!("{n}b")),
        };
        self.locals.insert(n, (Some(id), None));
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoped_lookup_and_creation() {
        let mut t = SymbolTable::new();
        let g = t.definition_target("x");
        t.open_scope("a");
        let a = t.definition_target("x");
        assert_ne!(g, a);
        assert_eq!(t.lookup("x"), Some(a));
        assert_eq!(t.lookup("::x"), Some(g));
        t.close_scope();
        assert_eq!(t.lookup("a::x"), Some(a));
        assert_eq!(t.lookup("x"), Some(g));
        assert!(!t.close_scope());
        let b = t.lookup_or_create("b::y");
        assert_eq!(t.lookup("b::y"), Some(b));
    }

    #[test]
    fn local_labels_forward_then_backward() {
        let mut t = SymbolTable::new();
        let f = t.local_forward(1);
        assert_eq!(t.define_local(1), f);
        assert_eq!(t.local_backward(1), Some(f));
        let g = t.define_local(1);
        assert_ne!(f, g);
        assert_eq!(t.local_backward(2), None);
    }

    #[test]
    fn fx_hash_differs() {
        let mut a = FxHasher::default();
        a.write(b"hello world!");
        let mut b = FxHasher::default();
        b.write(b"hello world?");
        assert_ne!(a.finish(), b.finish());
    }
}
