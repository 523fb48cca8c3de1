//! `aw project-md-upsert`: the project block as the reference shapes it (`--read`, its Spanish
//! keys `proyecto` and `fuentes` included), or what merging into it wrote (`--init`).

use super::project_block::BlockWrite;
use crate::project::model::BranchMap;
use schemars::JsonSchema;
use serde::Serialize;

/// The output of `aw project-md-upsert`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ProjectMdUpsert<'a> {
    /// `--read`.
    Read(ProjectMdRead<'a>),
    /// `--init`.
    Init(ProjectMdInit<'a>),
}

/// The block read.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProjectMdRead<'a> {
    /// The block, or `null` when neither file has one.
    pub block: Option<BlockRead<'a>>,
    /// The files a block is kept in.
    pub files: [&'static str; 2],
    /// With `--verbose`: always `false`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_used: Option<bool>,
}

/// Everything the block says, in the reference's keys.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlockRead<'a> {
    /// The project description, or `null`.
    pub proyecto: Option<&'a str>,
    /// The sources, in row order.
    pub fuentes: Vec<BlockSource<'a>>,
    /// The stack section: only its known keys.
    pub stack: StackKeys<'a>,
    /// Default branches by role (`principal`, `desarrollo`, `qa`).
    pub default_branches: &'a BranchMap,
    /// The branch each source is being worked on.
    pub working_branches: &'a BranchMap,
    /// The branch each source is tested on.
    pub qa_branches: &'a BranchMap,
    /// `Last activity:` as written, or `null`.
    pub last_activity: Option<&'a str>,
    /// The lines aw does not own, when there are some.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preserved_lines: Option<Vec<PreservedLine<'a>>>,
    /// The status records either file carries for an alias or role the block does not declare.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped_lines: Option<&'a [String]>,
}

/// One row of the sources table.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlockSource<'a> {
    /// Its alias.
    pub alias: &'a str,
    /// Its path as declared.
    pub path: &'a str,
    /// The branch work starts from, or `null`.
    pub main_branch: Option<&'a str>,
}

/// The stack section's known keys.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackKeys<'a> {
    /// `Language:`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<&'a str>,
    /// `Framework:`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub framework: Option<&'a str>,
    /// `Database:`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub db: Option<&'a str>,
    /// `Build:`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build: Option<&'a str>,
}

/// A line aw does not own, and where it goes.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PreservedLine<'a> {
    /// Its place in the block.
    pub slot: &'static str,
    /// The line.
    pub text: &'a str,
}

/// What `--init` wrote.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProjectMdInit<'a> {
    /// The write.
    #[serde(flatten)]
    pub write: BlockWrite<'a>,
    /// The workspace (the human view's heading).
    #[serde(skip)]
    #[schemars(skip)]
    pub workspace: String,
}

impl<'a> BlockRead<'a> {
    /// The block's wire form.
    pub fn of(b: &'a crate::project::model::Block, dropped: &'a [String]) -> BlockRead<'a> {
        let st = &b.stack;
        BlockRead {
            proyecto: b.project.as_deref(),
            fuentes: b
                .sources
                .iter()
                .map(|s| BlockSource {
                    alias: &s.alias,
                    path: &s.path,
                    main_branch: s.main_branch.as_deref(),
                })
                .collect(),
            stack: StackKeys {
                language: st.language.as_deref(),
                framework: st.framework.as_deref(),
                db: st.db.as_deref(),
                build: st.build.as_deref(),
            },
            default_branches: &b.default_branches,
            working_branches: &b.working_branches,
            qa_branches: &b.qa_branches,
            last_activity: b.last_activity.as_deref(),
            preserved_lines: (!b.kept.is_empty()).then(|| {
                b.kept
                    .iter()
                    .map(|k| PreservedLine {
                        slot: k.slot.as_str(),
                        text: &k.text,
                    })
                    .collect()
            }),
            dropped_lines: (!dropped.is_empty()).then_some(dropped),
        }
    }
}
