//! Journeys: the linear list of rows one flow walks — the chassis prefix rows, the flow's own
//! rows in table order, the chassis suffix rows — and the `docs/` folders it may write.

use super::error::{FlowError, FlowResult};
use super::registry::{Decision, Registry};
use super::state::RunState;
use crate::error_code::ErrorCode;
use crate::vocab::flow::{Flow, Placement};

/// The rows of one flow, in walking order.
#[derive(Debug, Clone)]
pub struct Journey<'a> {
    /// The flow.
    pub flow: Flow,
    /// The rows; the run's cursor is an index into this list.
    pub rows: Vec<&'a Decision>,
    /// The `docs/<folder>` paths the flow's actions may write into.
    pub docs: Vec<String>,
}

impl<'a> Journey<'a> {
    /// Composes the journey of `flow` from a registry (§5.1).
    pub fn of(registry: &'a Registry, flow: Flow) -> Journey<'a> {
        let placed = |p: Placement| {
            registry
                .of_scope("chassis")
                .filter(move |d| d.placement == Some(p))
        };
        let rows = placed(Placement::Prefix)
            .chain(registry.of_scope(flow.as_str()))
            .chain(placed(Placement::Suffix))
            .collect();
        let docs = registry
            .docs_of(flow.as_str())
            .iter()
            .map(|d| d.to_string())
            .collect();
        Journey { flow, rows, docs }
    }

    /// The journey of `flow` in the embedded registry.
    pub fn builtin(flow: Flow) -> FlowResult<Journey<'static>> {
        Ok(Journey::of(Registry::get(), flow))
    }

    /// A hand-built journey (tests and fixtures).
    pub fn fixture(flow: Flow, rows: &'a [Decision], docs: &[&str]) -> Journey<'a> {
        Journey {
            flow,
            rows: rows.iter().collect(),
            docs: docs.iter().map(|d| (*d).to_owned()).collect(),
        }
    }

    /// The row at a cursor, if the journey has not ended there.
    pub fn at(&self, cursor: usize) -> Option<&'a Decision> {
        self.rows.get(cursor).copied()
    }

    /// A row of this journey by id.
    pub fn find(&self, id: &str) -> Option<&'a Decision> {
        self.rows.iter().copied().find(|d| d.id == id)
    }

    /// The ids from `cursor` to the end.
    pub fn pending_from(&self, cursor: usize) -> Vec<String> {
        self.rows
            .iter()
            .skip(cursor)
            .map(|d| d.id.to_string())
            .collect()
    }

    /// Checks that a state's cursor and boundary lie on this journey (§4.5).
    pub fn check(&self, state: &RunState) -> FlowResult<()> {
        for (i, id) in state.applied.iter().enumerate() {
            let here = self.rows.get(i).map(|d| d.id.as_ref());
            if here != Some(id.as_str()) {
                if state.legacy {
                    return Err(super::state_parse::legacy_cannot_continue(state, i));
                }
                return Err(ahead(format!(
                    "The run state says it applied '{id}' where the {} journey has {}.",
                    self.flow.as_str(),
                    here.map_or("nothing".to_owned(), |h| format!("'{h}'"))
                )));
            }
        }
        if let Some(b) = &state.boundary {
            let next = self.rows.get(state.applied.len()).map(|d| d.id.as_ref());
            if next != Some(b.as_str()) {
                return Err(ahead(format!(
                    "The run state stands on '{b}' but the {} journey continues at {}.",
                    self.flow.as_str(),
                    next.map_or("nothing (it is finished)".to_owned(), |n| format!("'{n}'"))
                )));
            }
        }
        Ok(())
    }
}

fn ahead(message: String) -> FlowError {
    FlowError::new(
        ErrorCode::FlowRunAheadOfJourney,
        message,
        "The state was written by another version of the journey or edited by hand: delete \
         .flow-run.json in the session folder and adopt the session again with \
         `aw flow advance --session <session> --flow <flow> --adopt`.",
    )
}
