//! The descriptor validator (§4.2): the reference's rules, in its order.
//!
//! Two early exits (not an object; an unsupported `contract_version`, read before and instead of
//! any other field); every other failure is collected, so one run names everything to fix. Each
//! failure carries a code, the artifact (`"<artifact> (<op>)"` inside a named operation), the
//! concrete JSON path, a message and a non-empty next action. The validator also records every
//! schema property path it reads (`touched`), which the drift guard compares with the schema.

use super::descriptor::{
    Approval, Authorization, CONTRACT_VERSION, Completeness, DEFAULT_ARTIFACT, DegradationAction,
    DegradationCause, Descriptor, FloorKind, Improvements, InputKind, Interaction, OffPolicy,
    OutputKind, Route, Sensitivity, Status, WorkspaceNeed,
};
use super::grammar::Grammar;
use crate::error_code::ErrorCode;
use crate::vocab::flow::EffectClass;
use aw_json::js::js_trim;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// One thing wrong with a descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Failure {
    /// The stable code.
    pub code: ErrorCode,
    /// The file, or `"<file> (<operation>)"` for a field inside a named operation.
    pub artifact: String,
    /// Where in the JSON (`operations[1].effects[0].class`; empty for the whole document).
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// What to do about it (never empty).
    pub action: String,
}

/// The closed objects of the descriptor: schema path → allowed keys, in the schema's order.
pub const ALLOWED_KEYS: &[(&str, &[&str])] = &[
    (
        "",
        &[
            "contract_version",
            "name",
            "purpose",
            "exposure",
            "default_operation",
            "operations",
            "floor",
            "degradations",
            "compatibility",
        ],
    ),
    (
        "operations[]",
        &[
            "name",
            "summary",
            "exposure",
            "workspace",
            "interaction",
            "inputs",
            "output",
            "effects",
            "off",
        ],
    ),
    (
        "operations[].inputs[]",
        &["name", "kind", "required", "sensitivity", "schema"],
    ),
    ("operations[].output", &["kind", "schema", "completeness"]),
    (
        "operations[].effects[]",
        &["class", "idempotent", "authorization", "approval"],
    ),
    ("floor", &["builtin", "kind", "improvements"]),
    ("degradations[]", &["cause", "action"]),
    (
        "compatibility",
        &[
            "status",
            "minimum_contract_version",
            "improves",
            "retired_names",
            "retired_formats",
        ],
    ),
    (
        "compatibility.improves",
        &["capability", "operations", "contract_version"],
    ),
];

/// The keys allowed at a schema path (empty for a path that is not a closed object).
pub fn allowed_keys(schema_path: &str) -> &'static [&'static str] {
    ALLOWED_KEYS
        .iter()
        .find(|(p, _)| *p == schema_path)
        .map_or(&[], |(_, keys)| *keys)
}

/// The effect-class spellings, from the flow engine's one list.
pub fn effect_class_names() -> Vec<&'static str> {
    EffectClass::ALL.iter().map(|c| c.as_str()).collect()
}

/// The failures of a run, and the schema paths it read.
#[derive(Debug, Default)]
pub struct Checked {
    /// Every failure, in the order found.
    pub failures: Vec<Failure>,
    /// Every schema property path read (`operations[].inputs[].schema`).
    pub touched: BTreeSet<String>,
}

/// Checks `value` as a descriptor published as `artifact`, returning the typed descriptor when
/// nothing is wrong and every failure otherwise.
pub fn validate(value: &Value, artifact: &str) -> Result<Descriptor, Vec<Failure>> {
    let checked = check(value, artifact);
    if !checked.failures.is_empty() {
        return Err(checked.failures);
    }
    // The checks above are the type's invariants; integers written as `1.0` are the one shape
    // serde would not read into `u64`, so they are normalised first.
    let mut typed = value.clone();
    normalise_integers(&mut typed);
    serde_json::from_value(typed).map_err(|e| {
        vec![Failure {
            code: ErrorCode::CapabilityFieldInvalid,
            artifact: artifact.to_owned(),
            path: String::new(),
            message: format!("the descriptor passed every rule but could not be read: {e}"),
            action: "report this as a bug in aw, with the descriptor attached".to_owned(),
        }]
    })
}

/// [`validate`] with the default artifact name.
pub fn validate_default(value: &Value) -> Result<Descriptor, Vec<Failure>> {
    validate(value, DEFAULT_ARTIFACT)
}

fn normalise_integers(v: &mut Value) {
    let whole = |v: &mut Value| {
        if let Some(n) = v.as_f64().filter(|n| n.fract() == 0.0 && *n >= 0.0) {
            *v = Value::from(n as u64);
        }
    };
    if let Some(c) = v.get_mut("contract_version") {
        whole(c);
    }
    if let Some(compat) = v.get_mut("compatibility") {
        if let Some(m) = compat.get_mut("minimum_contract_version") {
            whole(m);
        }
        if let Some(c) = compat
            .get_mut("improves")
            .and_then(|i| i.get_mut("contract_version"))
        {
            whole(c);
        }
    }
}

/// Runs every rule, collecting failures and touched paths (the drift guard reads both).
pub fn check(value: &Value, artifact: &str) -> Checked {
    let mut cx = Cx {
        out: Checked::default(),
    };
    let root = Scope {
        artifact: artifact.to_owned(),
        path: String::new(),
        schema: String::new(),
    };
    let Some(obj) = value.as_object() else {
        cx.fail(
            ErrorCode::CapabilityDescriptorNotObject,
            &root,
            "",
            "the descriptor is not a JSON object".to_owned(),
            "write the descriptor as one JSON object with the fields of workline.capability-descriptor/v1".to_owned(),
        );
        return cx.out;
    };
    let version = cx.field(obj, &root, "contract_version");
    if version.and_then(Value::as_f64) != Some(CONTRACT_VERSION as f64) {
        cx.fail(
            ErrorCode::CapabilityContractVersionUnsupported,
            &root,
            "contract_version",
            format!(
                "'contract_version' is {}; this aw reads version {CONTRACT_VERSION} only",
                shown(version)
            ),
            format!("publish the descriptor with \"contract_version\": {CONTRACT_VERSION}, or use an aw that reads the newer contract"),
        );
        return cx.out;
    }
    cx.closed(obj, &root);
    let name = cx.name(obj, &root);
    cx.purpose(obj, &root);
    cx.subset(obj, &root, "exposure", Route::NAMES, None);
    let capability_exposure: Vec<&Value> = obj
        .get("exposure")
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let ops = cx.operations(obj, &root, &capability_exposure);
    cx.default_operation(obj, &root, &ops);
    cx.floor(obj, &root);
    cx.degradations(obj, &root);
    cx.compatibility(obj, &root, name.as_deref());
    cx.out
}

/// Where a check stands: the failure artifact, the concrete path and the schema path.
#[derive(Clone)]
struct Scope {
    artifact: String,
    path: String,
    schema: String,
}

impl Scope {
    fn key(&self, key: &str) -> (String, String) {
        let join = |p: &str| {
            if p.is_empty() {
                key.to_owned()
            } else {
                format!("{p}.{key}")
            }
        };
        (join(&self.path), join(&self.schema))
    }

    fn child(&self, key: &str) -> Scope {
        let (path, schema) = self.key(key);
        Scope {
            artifact: self.artifact.clone(),
            path,
            schema,
        }
    }

    fn item(&self, index: usize) -> Scope {
        Scope {
            artifact: self.artifact.clone(),
            path: format!("{}[{index}]", self.path),
            schema: format!("{}[]", self.schema),
        }
    }
}

struct Cx {
    out: Checked,
}

/// A value as the messages show it (JSON, or "missing").
fn shown(v: Option<&Value>) -> String {
    v.map_or_else(|| "missing".to_owned(), Value::to_string)
}

fn one_of(names: &[&str]) -> String {
    format!("use one of: {}", names.join(", "))
}

fn is_integer(v: &Value) -> bool {
    v.as_f64()
        .is_some_and(|n| n.fract() == 0.0 && n.is_finite())
}

impl Cx {
    fn fail(&mut self, code: ErrorCode, scope: &Scope, key: &str, message: String, action: String) {
        let path = if key.is_empty() {
            scope.path.clone()
        } else {
            scope.key(key).0
        };
        self.out.failures.push(Failure {
            code,
            artifact: scope.artifact.clone(),
            path,
            message,
            action,
        });
    }

    fn invalid(&mut self, scope: &Scope, key: &str, message: String, action: String) {
        self.fail(
            ErrorCode::CapabilityFieldInvalid,
            scope,
            key,
            message,
            action,
        );
    }

    /// Reads `key`, recording its schema path.
    fn field<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        scope: &Scope,
        key: &str,
    ) -> Option<&'v Value> {
        self.out.touched.insert(scope.key(key).1);
        obj.get(key)
    }

    /// One `CAPABILITY_KEY_UNKNOWN` per key the closed object does not allow.
    fn closed(&mut self, obj: &Map<String, Value>, scope: &Scope) {
        let allowed = allowed_keys(&scope.schema);
        for key in obj.keys().filter(|k| !allowed.contains(&k.as_str())) {
            let (path, _) = scope.key(key);
            let label = if scope.path.is_empty() {
                "the descriptor".to_owned()
            } else {
                format!("'{}'", scope.path)
            };
            self.out.failures.push(Failure {
                code: ErrorCode::CapabilityKeyUnknown,
                artifact: scope.artifact.clone(),
                path,
                message: format!("{label} has an unknown key '{key}'"),
                action: format!(
                    "remove '{key}'; the allowed keys are: {}",
                    allowed.join(", ")
                ),
            });
        }
    }

    /// The items of a list that are objects (each checked closed); a failure for each other item.
    fn objects<'v>(
        &mut self,
        items: &'v [Value],
        list: &Scope,
        what: &str,
    ) -> Vec<(Scope, &'v Map<String, Value>)> {
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let at = list.item(i);
            match item.as_object() {
                Some(obj) => {
                    self.closed(obj, &at);
                    out.push((at, obj));
                }
                None => self.invalid(
                    &at,
                    "",
                    format!("{what} {i} is not an object"),
                    format!("declare each {what} as an object"),
                ),
            }
        }
        out
    }

    /// Records `value` in `seen`, or fails when it is already there (`what` names the kind).
    fn once(&mut self, seen: &mut Vec<String>, value: String, at: &Scope, key: &str, what: &str) {
        if seen.contains(&value) {
            self.invalid(
                at,
                key,
                format!("the {what} '{value}' is declared twice"),
                format!("keep one declaration of '{value}'"),
            );
        } else {
            seen.push(value);
        }
    }

    /// A closed object at `key`, or a failure.
    fn object<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        scope: &Scope,
        key: &str,
    ) -> Option<&'v Map<String, Value>> {
        let v = self.field(obj, scope, key);
        match v.and_then(Value::as_object) {
            Some(o) => {
                self.closed(o, &scope.child(key));
                Some(o)
            }
            None => {
                let what = if v.is_none() {
                    format!("'{key}' is missing")
                } else {
                    format!("'{key}' must be an object, not {}", shown(v))
                };
                let keys = allowed_keys(&scope.child(key).schema).join(", ");
                self.invalid(
                    scope,
                    key,
                    what,
                    format!("declare '{key}' as an object with: {keys}"),
                );
                None
            }
        }
    }

    /// An array at `key`, or a failure.
    fn array<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        scope: &Scope,
        key: &str,
        what: &str,
    ) -> Option<&'v Vec<Value>> {
        let v = self.field(obj, scope, key);
        let arr = v.and_then(Value::as_array);
        if arr.is_none() {
            self.invalid(
                scope,
                key,
                format!("'{key}' must be an array, not {}", shown(v)),
                format!("declare '{key}' as an array of {what}"),
            );
        }
        arr
    }

    fn string_grammar(
        &mut self,
        obj: &Map<String, Value>,
        scope: &Scope,
        key: &str,
        grammar: Grammar,
        nullable: bool,
    ) -> Option<String> {
        let v = self.field(obj, scope, key);
        match v {
            Some(Value::Null) if nullable => None,
            Some(Value::String(s)) if grammar.matches(s) => Some(s.clone()),
            _ => {
                let null = if nullable { " or null" } else { "" };
                self.invalid(
                    scope,
                    key,
                    format!("'{key}' is not a valid value: {}", shown(v)),
                    format!("write {}{null}", grammar.describe()),
                );
                None
            }
        }
    }

    fn nonblank(&mut self, obj: &Map<String, Value>, scope: &Scope, key: &str) {
        let v = self.field(obj, scope, key);
        if v.and_then(Value::as_str)
            .is_none_or(|s| js_trim(s).is_empty())
        {
            self.invalid(
                scope,
                key,
                format!("'{key}' must be a non-blank string, not {}", shown(v)),
                format!("write '{key}' as one sentence"),
            );
        }
    }

    fn enumerated(
        &mut self,
        obj: &Map<String, Value>,
        scope: &Scope,
        key: &str,
        names: &[&str],
    ) -> Option<String> {
        let v = self.field(obj, scope, key);
        match v.and_then(Value::as_str) {
            Some(s) if names.contains(&s) => Some(s.to_owned()),
            _ => {
                self.invalid(
                    scope,
                    key,
                    format!("'{key}' does not accept {}", shown(v)),
                    one_of(names),
                );
                None
            }
        }
    }

    fn boolean(&mut self, obj: &Map<String, Value>, scope: &Scope, key: &str) {
        let v = self.field(obj, scope, key);
        if !v.is_some_and(Value::is_boolean) {
            self.invalid(
                scope,
                key,
                format!("'{key}' must be a boolean, not {}", shown(v)),
                format!("write true or false for '{key}'"),
            );
        }
    }

    /// A non-empty array of known values without repeats (optionally within `within`).
    fn subset(
        &mut self,
        obj: &Map<String, Value>,
        scope: &Scope,
        key: &str,
        names: &[&str],
        within: Option<&[&Value]>,
    ) -> Vec<String> {
        let Some(items) = self.array(
            obj,
            scope,
            key,
            &format!("distinct values among: {}", names.join(", ")),
        ) else {
            return Vec::new();
        };
        if items.is_empty() {
            self.invalid(
                scope,
                key,
                format!("'{key}' is empty"),
                format!("declare at least one of: {}", names.join(", ")),
            );
        }
        let mut seen = Vec::new();
        for item in items {
            match item.as_str() {
                Some(s) if names.contains(&s) => {
                    if seen.iter().any(|x: &String| x == s) {
                        self.invalid(
                            scope,
                            key,
                            format!("'{key}' lists '{s}' twice"),
                            format!("list '{s}' once"),
                        );
                        continue;
                    }
                    if let Some(outer) = within
                        && !outer.iter().any(|o| o.as_str() == Some(s))
                    {
                        self.invalid(scope, key, format!("'{key}' includes '{s}', which the capability's own exposure does not open"), format!("remove '{s}' here, or add it to the capability's 'exposure'"));
                    }
                    seen.push(s.to_owned());
                }
                _ => self.invalid(
                    scope,
                    key,
                    format!("'{key}' does not accept {item}"),
                    one_of(names),
                ),
            }
        }
        seen
    }

    fn name(&mut self, obj: &Map<String, Value>, root: &Scope) -> Option<String> {
        let name = self.string_grammar(obj, root, "name", Grammar::Name, false)?;
        if super::bindings::RETIRED.iter().any(|r| r.name == name) {
            self.fail(
                ErrorCode::CapabilityNameRetired,
                root,
                "name",
                format!("the capability name '{name}' is retired"),
                "publish the descriptor under the capability's current name".to_owned(),
            );
        }
        Some(name)
    }

    fn purpose(&mut self, obj: &Map<String, Value>, root: &Scope) {
        self.nonblank(obj, root, "purpose");
    }

    /// Checks every operation; returns the valid, distinct operation names.
    fn operations(
        &mut self,
        obj: &Map<String, Value>,
        root: &Scope,
        capability_exposure: &[&Value],
    ) -> Vec<String> {
        let Some(ops) = self.array(obj, root, "operations", "operation objects") else {
            return Vec::new();
        };
        let list = root.child("operations");
        let mut names: Vec<String> = Vec::new();
        for (i, op) in ops.iter().enumerate() {
            let mut scope = list.item(i);
            let Some(op) = op.as_object() else {
                self.invalid(
                    &scope,
                    "",
                    format!("operation {i} is not an object"),
                    "declare each operation as an object".to_owned(),
                );
                continue;
            };
            if let Some(n) = op
                .get("name")
                .and_then(Value::as_str)
                .filter(|n| !js_trim(n).is_empty())
            {
                scope.artifact = format!("{} ({n})", root.artifact);
            }
            self.closed(op, &scope);
            if let Some(n) = self.string_grammar(op, &scope, "name", Grammar::Identifier, false) {
                self.once(&mut names, n, &scope, "name", "operation");
            }
            self.nonblank(op, &scope, "summary");
            self.subset(
                op,
                &scope,
                "exposure",
                Route::NAMES,
                Some(capability_exposure),
            );
            self.enumerated(op, &scope, "workspace", WorkspaceNeed::NAMES);
            self.enumerated(op, &scope, "interaction", Interaction::NAMES);
            self.inputs(op, &scope);
            self.output(op, &scope);
            self.effects(op, &scope);
            self.enumerated(op, &scope, "off", OffPolicy::NAMES);
        }
        if names.is_empty() {
            self.invalid(
                root,
                "operations",
                "'operations' declares no valid operation".to_owned(),
                "declare at least one operation with a valid, unique name".to_owned(),
            );
        }
        names
    }

    fn inputs(&mut self, op: &Map<String, Value>, scope: &Scope) {
        let Some(inputs) = self.array(op, scope, "inputs", "input objects (it may be empty)")
        else {
            return;
        };
        let list = scope.child("inputs");
        let mut names: Vec<String> = Vec::new();
        for (at, input) in self.objects(inputs, &list, "input") {
            if let Some(n) = self.string_grammar(input, &at, "name", Grammar::Identifier, false) {
                self.once(&mut names, n, &at, "name", "input");
            }
            self.enumerated(input, &at, "kind", InputKind::NAMES);
            self.boolean(input, &at, "required");
            self.enumerated(input, &at, "sensitivity", Sensitivity::NAMES);
            self.string_grammar(input, &at, "schema", Grammar::SchemaId, true);
        }
    }

    fn output(&mut self, op: &Map<String, Value>, scope: &Scope) {
        let Some(output) = self.object(op, scope, "output") else {
            return;
        };
        let at = scope.child("output");
        self.enumerated(output, &at, "kind", OutputKind::NAMES);
        self.string_grammar(output, &at, "schema", Grammar::SchemaId, true);
        self.subset(output, &at, "completeness", Completeness::NAMES, None);
    }

    fn effects(&mut self, op: &Map<String, Value>, scope: &Scope) {
        let Some(effects) = self.array(op, scope, "effects", "effect objects") else {
            return;
        };
        if effects.is_empty() {
            self.invalid(
                scope,
                "effects",
                "'effects' is empty: an operation with no declared effect may exercise none"
                    .to_owned(),
                "declare at least 'read_only'".to_owned(),
            );
        }
        let classes = effect_class_names();
        let list = scope.child("effects");
        let mut seen: Vec<String> = Vec::new();
        for (at, effect) in self.objects(effects, &list, "effect") {
            if let Some(c) = self.enumerated(effect, &at, "class", &classes) {
                self.once(&mut seen, c, &at, "class", "effect class");
            }
            self.boolean(effect, &at, "idempotent");
            self.enumerated(effect, &at, "authorization", Authorization::NAMES);
            self.enumerated(effect, &at, "approval", Approval::NAMES);
        }
    }

    fn default_operation(&mut self, obj: &Map<String, Value>, root: &Scope, ops: &[String]) {
        match self.field(obj, root, "default_operation") {
            None => self.invalid(root, "default_operation", "'default_operation' is missing".to_owned(), "declare 'default_operation' as an operation name, or null when every call must name one".to_owned()),
            Some(Value::Null) => {}
            Some(Value::String(s)) if ops.contains(s) => {}
            Some(v) => self.invalid(root, "default_operation", format!("'default_operation' is {v}, which is not a declared operation"), if ops.is_empty() { "use null".to_owned() } else { format!("use null or one of: {}", ops.join(", ")) }),
        }
    }

    fn floor(&mut self, obj: &Map<String, Value>, root: &Scope) {
        let Some(floor) = self.object(obj, root, "floor") else {
            return;
        };
        let at = root.child("floor");
        self.boolean(floor, &at, "builtin");
        let kind = self.enumerated(floor, &at, "kind", FloorKind::NAMES);
        self.enumerated(floor, &at, "improvements", Improvements::NAMES);
        if kind.as_deref() == Some(FloorKind::Core.as_str())
            && floor.get("builtin") == Some(&Value::Bool(false))
        {
            self.invalid(&at, "kind", "a 'core' capability without a built-in floor would block a gate whenever nothing is installed".to_owned(), "set 'builtin' to true, or 'kind' to 'feature'".to_owned());
        }
    }

    fn degradations(&mut self, obj: &Map<String, Value>, root: &Scope) {
        let Some(list) = self.array(
            obj,
            root,
            "degradations",
            "degradation objects (it may be empty)",
        ) else {
            return;
        };
        let scope = root.child("degradations");
        // Duplicates are allowed, as in the reference.
        for (at, d) in self.objects(list, &scope, "degradation") {
            self.enumerated(d, &at, "cause", DegradationCause::NAMES);
            self.enumerated(d, &at, "action", DegradationAction::NAMES);
        }
    }

    fn compatibility(&mut self, obj: &Map<String, Value>, root: &Scope, name: Option<&str>) {
        let Some(c) = self.object(obj, root, "compatibility") else {
            return;
        };
        let at = root.child("compatibility");
        self.enumerated(c, &at, "status", Status::NAMES);
        let min = self.field(c, &at, "minimum_contract_version");
        if !min.is_some_and(|m| {
            is_integer(m)
                && m.as_f64()
                    .is_some_and(|n| (1.0..=CONTRACT_VERSION as f64).contains(&n))
        }) {
            self.invalid(&at, "minimum_contract_version", format!("'minimum_contract_version' is {}; this aw reads contract versions 1 to {CONTRACT_VERSION}", shown(min)), format!("write an integer from 1 to {CONTRACT_VERSION}"));
        }
        self.improves(c, &at, name);
        if let Some(retired) = self.array(c, &at, "retired_names", "capability names") {
            for (i, r) in retired.iter().enumerate() {
                match r.as_str() {
                    Some(s) if Grammar::Name.matches(s) => {
                        if Some(s) == name {
                            self.invalid(
                                &at,
                                "retired_names",
                                format!("'retired_names' lists the live name '{s}'"),
                                format!("remove '{s}' from 'retired_names'"),
                            );
                        }
                    }
                    _ => self.invalid(
                        &at.child("retired_names").item(i),
                        "",
                        format!("retired name {r} is not a valid name"),
                        format!("write {}", Grammar::Name.describe()),
                    ),
                }
            }
        }
        if let Some(formats) = self.array(c, &at, "retired_formats", "non-blank strings") {
            for (i, f) in formats.iter().enumerate() {
                if f.as_str().is_none_or(|s| js_trim(s).is_empty()) {
                    self.invalid(
                        &at.child("retired_formats").item(i),
                        "",
                        format!("retired format {f} is not a non-blank string"),
                        "write each retired format as a non-blank string".to_owned(),
                    );
                }
            }
        }
    }

    fn improves(&mut self, c: &Map<String, Value>, at: &Scope, name: Option<&str>) {
        let v = self.field(c, at, "improves");
        let Some(v) = v else {
            self.invalid(
                at,
                "improves",
                "'improves' is missing".to_owned(),
                "declare 'improves' as null, or as the capability this descriptor improves"
                    .to_owned(),
            );
            return;
        };
        if v.is_null() {
            return;
        }
        let Some(imp) = v.as_object() else {
            self.invalid(
                at,
                "improves",
                format!("'improves' must be an object or null, not {v}"),
                "declare 'improves' as null, or as {capability, operations, contract_version}"
                    .to_owned(),
            );
            return;
        };
        let scope = at.child("improves");
        self.closed(imp, &scope);
        if let Some(target) = self.string_grammar(imp, &scope, "capability", Grammar::Name, false)
            && Some(target.as_str()) == name
        {
            self.invalid(
                &scope,
                "capability",
                format!("the descriptor claims to improve itself ('{target}')"),
                "name the capability this one improves, or set 'improves' to null".to_owned(),
            );
        }
        // Unknown and repeated operation names are not checked here: resolution verifies them
        // against the improved capability.
        if let Some(ops) = self.array(imp, &scope, "operations", "operation identifiers") {
            if ops.is_empty() {
                self.invalid(
                    &scope,
                    "operations",
                    "'improves.operations' is empty".to_owned(),
                    "list at least one operation of the improved capability".to_owned(),
                );
            }
            for (i, op) in ops.iter().enumerate() {
                if !op.as_str().is_some_and(|s| Grammar::Identifier.matches(s)) {
                    self.invalid(
                        &scope.child("operations").item(i),
                        "",
                        format!("{op} is not an operation identifier"),
                        format!("write {}", Grammar::Identifier.describe()),
                    );
                }
            }
        }
        let cv = self.field(imp, &scope, "contract_version");
        if !cv.is_some_and(|v| is_integer(v) && v.as_f64().is_some_and(|n| n >= 1.0)) {
            self.invalid(
                &scope,
                "contract_version",
                format!("'improves.contract_version' is {}", shown(cv)),
                "write an integer of at least 1".to_owned(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const MAXIMAL: &str = include_str!("testdata/descriptor-maximal.json");

    fn maximal() -> Value {
        serde_json::from_str(MAXIMAL).unwrap()
    }

    /// The failures after setting `pointer` to `value` (or removing it when `None`).
    fn with(pointer: &str, value: Option<Value>) -> Vec<Failure> {
        let mut v = maximal();
        match value {
            Some(value) => *v.pointer_mut(pointer).unwrap() = value,
            None => {
                let (parent, key) = pointer.rsplit_once('/').unwrap();
                v.pointer_mut(parent)
                    .unwrap()
                    .as_object_mut()
                    .unwrap()
                    .remove(key);
            }
        }
        let failures = check(&v, "d.json").failures;
        assert!(
            failures
                .iter()
                .all(|f| !f.action.trim().is_empty() && !f.message.trim().is_empty())
        );
        failures
    }

    fn one(pointer: &str, value: Option<Value>) -> Failure {
        let f = with(pointer, value);
        assert_eq!(f.len(), 1, "{pointer}: {f:#?}");
        f.into_iter().next().unwrap()
    }

    #[test]
    fn the_maximal_descriptor_validates() {
        let d = validate(&maximal(), "d.json").unwrap();
        assert_eq!(d.name, "example-capability");
        assert_eq!(d.compatibility.improves.unwrap().capability, "design");
    }

    #[test]
    fn not_an_object_stops_at_once() {
        for v in [json!([]), json!("x"), json!(null), json!(1)] {
            let f = check(&v, "d.json").failures;
            assert_eq!(f.len(), 1);
            assert_eq!(f[0].code, ErrorCode::CapabilityDescriptorNotObject);
        }
    }

    #[test]
    fn the_version_gate_runs_first_and_alone() {
        let v = json!({"contract_version": 99, "extra": 1, "name": "BAD"});
        let checked = check(&v, "d.json");
        assert_eq!(checked.failures.len(), 1);
        assert_eq!(
            checked.failures[0].code,
            ErrorCode::CapabilityContractVersionUnsupported
        );
        assert_eq!(checked.touched.len(), 1, "no other field is read");
        assert_eq!(
            one("/contract_version", None).code,
            ErrorCode::CapabilityContractVersionUnsupported
        );
        assert!(with("/contract_version", Some(json!(1.0))).is_empty());
    }

    #[test]
    fn unknown_keys_are_refused_at_every_closed_object() {
        for pointer in [
            "/x",
            "/operations/0/x",
            "/operations/0/inputs/0/x",
            "/operations/0/output/x",
            "/operations/0/effects/0/x",
            "/floor/x",
            "/degradations/0/x",
            "/compatibility/x",
            "/compatibility/improves/x",
        ] {
            let mut v = maximal();
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            v.pointer_mut(parent)
                .unwrap()
                .as_object_mut()
                .unwrap()
                .insert(key.to_owned(), json!(1));
            let f = check(&v, "d.json").failures;
            assert_eq!(f.len(), 1, "{pointer}");
            assert_eq!(f[0].code, ErrorCode::CapabilityKeyUnknown);
            assert!(f[0].action.contains("allowed keys"));
        }
    }

    #[test]
    fn name_grammar_and_retired_names() {
        assert_eq!(
            one("/name", Some(json!("Example"))).code,
            ErrorCode::CapabilityFieldInvalid
        );
        for retired in ["ui-design", "ui-spec"] {
            let f = with("/name", Some(json!(retired)));
            assert!(
                f.iter().any(|f| f.code == ErrorCode::CapabilityNameRetired
                    && f.action.contains("current name")),
                "{f:?}"
            );
        }
    }

    #[test]
    fn purpose_must_not_be_blank() {
        assert_eq!(one("/purpose", Some(json!(" \t"))).path, "purpose");
        assert_eq!(one("/purpose", Some(json!(3))).path, "purpose");
    }

    #[test]
    fn capability_exposure_is_a_non_empty_set_of_routes() {
        let f = with("/exposure", Some(json!([])));
        assert!(f.iter().any(|f| f.path == "exposure"));
        assert_eq!(
            one("/exposure", Some(json!(["direct", "compose", "direct"]))).path,
            "exposure"
        );
        // An unknown route is refused (and the op exposing `direct` still fits the raw array).
        assert_eq!(
            one("/exposure", Some(json!(["direct", "compose", "mail"]))).path,
            "exposure"
        );
    }

    #[test]
    fn operation_exposure_stays_within_the_capability_exposure() {
        let f = one("/exposure", Some(json!(["compose"])));
        assert_eq!(f.artifact, "d.json (inspect)");
        assert_eq!(f.path, "operations[0].exposure");
        assert!(f.message.contains("direct"));
    }

    #[test]
    fn operation_fields_are_scoped_to_the_operation() {
        let f = one("/operations/1/workspace", Some(json!("anywhere")));
        assert_eq!(f.artifact, "d.json (publish)");
        assert!(f.action.contains("required, optional, standalone"));
        // Even an invalid (but non-blank) name scopes the artifact.
        let f = with("/operations/1/name", Some(json!("Bad Name")));
        assert!(
            f.iter()
                .any(|f| f.artifact == "d.json (Bad Name)" && f.path == "operations[1].name")
        );
        // A blank name does not.
        let f = with("/operations/1/name", Some(json!(" ")));
        assert!(f.iter().all(|f| f.artifact == "d.json"));
        for (pointer, value) in [
            ("/operations/1/summary", json!(" ")),
            ("/operations/1/interaction", json!("chatty")),
            ("/operations/1/off", json!("maybe")),
        ] {
            assert_eq!(
                one(pointer, Some(value)).artifact,
                "d.json (publish)",
                "{pointer}"
            );
        }
    }

    #[test]
    fn operation_names_are_unique() {
        let f = one("/operations/1/name", Some(json!("inspect")));
        assert!(f.message.contains("twice"));
    }

    #[test]
    fn no_valid_operation_is_a_failure() {
        let f = with("/operations", Some(json!([])));
        assert!(
            f.iter()
                .any(|f| f.path == "operations" && f.message.contains("no valid operation"))
        );
        assert!(
            with("/operations", Some(json!([1])))
                .iter()
                .any(|f| f.path == "operations[0]")
        );
    }

    #[test]
    fn inputs_are_checked() {
        assert_eq!(
            one("/operations/0/inputs/1/name", Some(json!("subject"))).path,
            "operations[0].inputs[1].name"
        );
        assert_eq!(
            one("/operations/0/inputs/0/kind", Some(json!("blob"))).path,
            "operations[0].inputs[0].kind"
        );
        assert_eq!(
            one("/operations/0/inputs/0/required", Some(json!("yes"))).path,
            "operations[0].inputs[0].required"
        );
        assert_eq!(
            one("/operations/0/inputs/0/sensitivity", Some(json!("secret"))).path,
            "operations[0].inputs[0].sensitivity"
        );
        assert_eq!(
            one("/operations/0/inputs/0/schema", Some(json!("Not/an/id"))).path,
            "operations[0].inputs[0].schema"
        );
        assert_eq!(
            one("/operations/0/inputs", Some(json!({}))).path,
            "operations[0].inputs"
        );
        assert!(with("/operations/0/inputs", Some(json!([]))).is_empty());
    }

    #[test]
    fn output_is_checked() {
        assert_eq!(
            one("/operations/0/output/kind", Some(json!("text"))).path,
            "operations[0].output.kind"
        );
        assert_eq!(
            one("/operations/0/output/schema", Some(json!("x"))).path,
            "operations[0].output.schema"
        );
        assert_eq!(
            one("/operations/0/output/completeness", Some(json!([]))).path,
            "operations[0].output.completeness"
        );
        assert_eq!(
            one(
                "/operations/0/output/completeness",
                Some(json!(["partial", "partial"]))
            )
            .path,
            "operations[0].output.completeness"
        );
        assert_eq!(
            one("/operations/0/output", None).path,
            "operations[0].output"
        );
    }

    #[test]
    fn effects_need_read_only_at_least_and_no_repeated_class() {
        let f = one("/operations/0/effects", Some(json!([])));
        assert!(f.action.contains("read_only"));
        let dup = json!([
            {"class": "read_only", "idempotent": true, "authorization": "invocation", "approval": "none"},
            {"class": "read_only", "idempotent": true, "authorization": "invocation", "approval": "none"}
        ]);
        assert!(
            one("/operations/0/effects", Some(dup))
                .message
                .contains("twice")
        );
        assert_eq!(
            one("/operations/0/effects/0/class", Some(json!("teleport"))).path,
            "operations[0].effects[0].class"
        );
        assert_eq!(
            one("/operations/0/effects/0/idempotent", Some(json!(1))).path,
            "operations[0].effects[0].idempotent"
        );
        assert_eq!(
            one("/operations/0/effects/0/authorization", Some(json!("self"))).path,
            "operations[0].effects[0].authorization"
        );
        assert_eq!(
            one("/operations/0/effects/0/approval", Some(json!("hidden"))).path,
            "operations[0].effects[0].approval"
        );
    }

    #[test]
    fn default_operation_must_be_present_and_declared() {
        assert!(one("/default_operation", None).message.contains("missing"));
        assert!(with("/default_operation", Some(json!(null))).is_empty());
        assert!(with("/default_operation", Some(json!("publish"))).is_empty());
        let f = one("/default_operation", Some(json!("archive")));
        assert!(f.action.contains("inspect, publish"));
    }

    #[test]
    fn a_core_floor_must_be_built_in() {
        let f = one("/floor/kind", Some(json!("core")));
        assert!(f.message.contains("core"));
        assert!(with("/floor/builtin", Some(json!(true))).is_empty());
        assert!(
            with("/floor", None)
                .iter()
                .any(|f| f.message.contains("floor"))
        );
        assert_eq!(
            one("/floor/improvements", Some(json!("all"))).path,
            "floor.improvements"
        );
    }

    #[test]
    fn degradations_are_closed_enums_and_may_repeat() {
        assert_eq!(
            one("/degradations/0/cause", Some(json!("boredom"))).path,
            "degradations[0].cause"
        );
        assert_eq!(
            one("/degradations/0/action", Some(json!("retry"))).path,
            "degradations[0].action"
        );
        let twice = json!([{"cause": "opaque_selection", "action": "floor"}, {"cause": "opaque_selection", "action": "floor"}]);
        assert!(with("/degradations", Some(twice)).is_empty());
    }

    #[test]
    fn minimum_contract_version_is_between_one_and_ours() {
        for bad in [json!(0), json!(2), json!(1.5), json!("1")] {
            assert_eq!(
                one("/compatibility/minimum_contract_version", Some(bad)).path,
                "compatibility.minimum_contract_version"
            );
        }
    }

    #[test]
    fn improves_is_checked_and_never_self() {
        let f = one(
            "/compatibility/improves/capability",
            Some(json!("example-capability")),
        );
        assert!(f.message.contains("itself"));
        assert_eq!(
            one("/compatibility/improves/operations", Some(json!([]))).path,
            "compatibility.improves.operations"
        );
        assert_eq!(
            one(
                "/compatibility/improves/operations",
                Some(json!(["Create"]))
            )
            .path,
            "compatibility.improves.operations[0]"
        );
        // Repeated operations are allowed; unknown ones are checked at resolution.
        assert!(
            with(
                "/compatibility/improves/operations",
                Some(json!(["create", "create", "zzz"]))
            )
            .is_empty()
        );
        assert_eq!(
            one("/compatibility/improves/contract_version", Some(json!(0))).path,
            "compatibility.improves.contract_version"
        );
        assert_eq!(
            one("/compatibility/improves", Some(json!("design"))).path,
            "compatibility.improves"
        );
        assert_eq!(
            one("/compatibility/improves", None).path,
            "compatibility.improves"
        );
    }

    #[test]
    fn retired_names_never_hold_the_live_name() {
        let f = one(
            "/compatibility/retired_names",
            Some(json!(["example-capability"])),
        );
        assert!(f.message.contains("live name"));
        assert_eq!(
            one("/compatibility/retired_names", Some(json!(["Bad"]))).path,
            "compatibility.retired_names[0]"
        );
    }

    #[test]
    fn retired_formats_are_non_blank_strings() {
        assert_eq!(
            one("/compatibility/retired_formats", Some(json!([" "]))).path,
            "compatibility.retired_formats[0]"
        );
        assert_eq!(
            one("/compatibility/status", Some(json!("gone"))).path,
            "compatibility.status"
        );
    }

    #[test]
    fn every_failure_is_collected() {
        let mut v = maximal();
        v["name"] = json!("Bad");
        v["purpose"] = json!("");
        v["floor"]["kind"] = json!("core");
        assert_eq!(check(&v, "d.json").failures.len(), 3);
    }
}
