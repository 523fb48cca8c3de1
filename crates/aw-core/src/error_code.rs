//! Every error code aw can put on the wire, in one type.
//!
//! Codes are stable UPPER_SNAKE strings shared with the reference CLI; code branches on the enum,
//! never on the string. docs/PROTOCOL.md lists every one of them in its "Error codes" table, and a
//! test keeps the two in step.

use serde::{Serialize, Serializer};
use std::fmt;

macro_rules! error_codes {
    ($($(#[doc = $doc:literal])+ $name:ident = $wire:literal,)+) => {
        /// A stable error code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $($(#[doc = $doc])+ $name,)+
        }

        impl ErrorCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$name,)+];

            /// The code with this wire spelling.
            pub fn from_wire(wire: &str) -> Option<ErrorCode> {
                ErrorCode::ALL.iter().copied().find(|c| c.as_str() == wire)
            }

            /// The wire spelling.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$name => $wire,)+
                }
            }
        }
    };
}

error_codes! {
    // The chassis.
    /// A missing or malformed value, contradictory output flags.
    ArgsInvalid = "ARGS_INVALID",
    /// A flag the command does not have (v22's code).
    UnknownFlag = "UNKNOWN_FLAG",
    /// A command or verb that does not exist.
    UnknownCommand = "UNKNOWN_COMMAND",
    /// A missing or invalid input a command checks itself.
    InvalidInput = "INVALID_INPUT",
    /// The filesystem refused a read or write the command needed.
    IoError = "IO_ERROR",
    /// A bug in aw (a panic caught at the top level).
    Internal = "INTERNAL",
    /// Another process holds the workspace lock past the wait.
    LockBusy = "LOCK_BUSY",
    /// A write would leave the workspace: a folder or file on the way is a symbolic link to
    /// somewhere outside it, or the lock file is not a regular file.
    PathOutsideWorkspace = "PATH_OUTSIDE_WORKSPACE",
    // Workspaces, sessions and documents.
    /// The environment's context id and a hook's `session_id` name different conversations.
    ContextIdConflict = "CONTEXT_ID_CONFLICT",
    /// `workspace-init` stopped at a step.
    WorkspaceInitFailed = "WORKSPACE_INIT_FAILED",
    /// `visibility doctor`: a host's file does not list every external source, lists a folder
    /// no source has, cannot be read, or `.gitignore` lacks the visibility section.
    VisibilityDrift = "VISIBILITY_DRIFT",
    /// A session older than SESSION.md cannot be read that way.
    LegacyFormat = "LEGACY_FORMAT",
    /// `next-number --claim` found no free number.
    ClaimFailed = "CLAIM_FAILED",
    /// `aw persist`: a drafted document whose slug or title an existing document of its kind
    /// (or another item of the same answer) already has.
    PersistDuplicate = "PERSIST_DUPLICATE",
    /// `aw persist apply`: a number the plan gives a document is no longer free (another writer
    /// took it, or it lies below the folder's highest number).
    PersistNumberTaken = "PERSIST_NUMBER_TAKEN",
    /// `aw resume` was given a target that names nothing resumable.
    ResumeTargetInvalid = "RESUME_TARGET_INVALID",
    /// No session matches.
    SessionNotFound = "SESSION_NOT_FOUND",
    /// Several sessions match and none may be guessed.
    SessionAmbiguous = "SESSION_AMBIGUOUS",
    /// The session is closed.
    SessionClosed = "SESSION_CLOSED",
    /// The conversation registry cannot be used.
    SessionBindingInvalid = "SESSION_BINDING_INVALID",
    /// HISTORY.md holds bytes that are not UTF-8: rewriting it would lose them.
    HistoryEncodingInvalid = "HISTORY_ENCODING_INVALID",
    // The flow engine: the run state.
    /// The session has no run state.
    FlowRunAbsent = "FLOW_RUN_ABSENT",
    /// The run state cannot be read.
    FlowRunInvalid = "FLOW_RUN_INVALID",
    /// The run state's seal does not match its content.
    FlowRunTampered = "FLOW_RUN_TAMPERED",
    /// The run's sidecar attempt counter does not read, or was edited outside aw.
    FlowRunCounterInvalid = "FLOW_RUN_COUNTER_INVALID",
    /// The run's sidecar attempt counter is behind the floor its state sealed.
    FlowRunCounterRolledBack = "FLOW_RUN_COUNTER_ROLLED_BACK",
    /// The run state's version is not one aw reads.
    FlowRunVersionUnsupported = "FLOW_RUN_VERSION_UNSUPPORTED",
    /// The run state names another session.
    FlowRunSessionMismatch = "FLOW_RUN_SESSION_MISMATCH",
    /// Another invocation holds the workspace.
    FlowRunLocked = "FLOW_RUN_LOCKED",
    /// The run state records steps this aw's journey does not have.
    FlowRunAheadOfJourney = "FLOW_RUN_AHEAD_OF_JOURNEY",
    /// A malformed registry (the reference's; aw's is compiled in and never malformed).
    FlowRegistryInvalid = "FLOW_REGISTRY_INVALID",
    /// Adoption without `--flow`.
    FlowAdoptionFlowMissing = "FLOW_ADOPTION_FLOW_MISSING",
    // The flow engine: answers.
    /// No answer on stdin.
    FlowAnswerMissing = "FLOW_ANSWER_MISSING",
    /// The answer is not what the boundary takes.
    FlowAnswerInvalid = "FLOW_ANSWER_INVALID",
    /// Stdin stayed open with no byte arriving for the idle limit (`AW_ANSWER_IDLE_MS`).
    FlowAnswerTimeout = "FLOW_ANSWER_TIMEOUT",
    /// The answer is larger than the cap (`AW_ANSWER_MAX_BYTES`).
    FlowAnswerTooLarge = "FLOW_ANSWER_TOO_LARGE",
    /// The answer replies to an earlier state of the run.
    FlowAnswerStale = "FLOW_ANSWER_STALE",
    /// This answer was already applied.
    FlowAnswerResent = "FLOW_ANSWER_RESENT",
    /// An answer that declares nothing: no signal, no decision, no choice.
    FlowAnswerAmbiguous = "FLOW_ANSWER_AMBIGUOUS",
    /// No answer is expected: the run is finished, blocked, or has not stopped yet.
    FlowAnswerNotExpected = "FLOW_ANSWER_NOT_EXPECTED",
    /// A choice the boundary does not offer.
    FlowChoiceUnknown = "FLOW_CHOICE_UNKNOWN",
    /// A signal outside the row's vocabulary.
    FlowSignalUnknown = "FLOW_SIGNAL_UNKNOWN",
    /// A transition the CLI does not own, with no doctrine left to hand it back to.
    FlowTransitionUnowned = "FLOW_TRANSITION_UNOWNED",
    /// An execution result that is not well formed.
    FlowResultInvalid = "FLOW_RESULT_INVALID",
    /// The execution did not complete.
    FlowExecutionNotCompleted = "FLOW_EXECUTION_NOT_COMPLETED",
    /// Evidence the action requires is missing (a passed validation with a detail).
    FlowEvidenceMissing = "FLOW_EVIDENCE_MISSING",
    /// The result does not report every effect as applied, or declares its output partial.
    FlowEffectPartial = "FLOW_EFFECT_PARTIAL",
    /// The `workline.source-bounded` validation carries no checkout proof.
    WorklineCheckoutProofMissing = "WORKLINE_CHECKOUT_PROOF_MISSING",
    /// A checkout proof that cannot be evidence: a blank source or digest, an unsafe path, a
    /// blank program or artifact, a remote locator, or a source that is not an observed checkout.
    WorklineCheckoutProofInvalid = "WORKLINE_CHECKOUT_PROOF_INVALID",
    /// A checkout proof whose digest is not the checkout's live one.
    WorklineCheckoutProofStale = "WORKLINE_CHECKOUT_PROOF_STALE",
    /// A scope answer whose sources or plan are missing or malformed.
    FlowScopeInvalid = "FLOW_SCOPE_INVALID",
    /// A scope plan that is not a Markdown file under the plan folder.
    FlowScopePlanOutsideCanon = "FLOW_SCOPE_PLAN_OUTSIDE_CANON",
    /// A scope alias the WORKSPACE block does not declare.
    FlowScopeUnknownSource = "FLOW_SCOPE_UNKNOWN_SOURCE",
    /// A scope plan that cannot be read.
    FlowScopePlanUnreadable = "FLOW_SCOPE_PLAN_UNREADABLE",
    /// Scope aliases that are not exactly the plan's phase sources.
    FlowScopeNotInPlan = "FLOW_SCOPE_NOT_IN_PLAN",
    /// A plan without its checkout execution surface or without any phase.
    PlanSourceBoundaryMissing = "PLAN_SOURCE_BOUNDARY_MISSING",
    /// A plan phase or task naming a source the workspace does not declare, or none.
    PlanSourceUnknown = "PLAN_SOURCE_UNKNOWN",
    /// A plan task naming a source its phase does not.
    PlanTaskSourceOutsidePhase = "PLAN_TASK_SOURCE_OUTSIDE_PHASE",
    /// A plan closing clause that points at a remote place.
    PlanSourceExternalClosure = "PLAN_SOURCE_EXTERNAL_CLOSURE",
    /// A plan closing clause that names no local proof.
    PlanSourceLocalProofMissing = "PLAN_SOURCE_LOCAL_PROOF_MISSING",
    /// The reported invocation differs from the sealed action.
    FlowActionMismatch = "FLOW_ACTION_MISMATCH",
    /// The boundary's action changed after it was emitted (aw upgraded mid-run).
    FlowActionChanged = "FLOW_ACTION_CHANGED",
    /// The action uses a placeholder this run cannot fill in.
    FlowActionUnbound = "FLOW_ACTION_UNBOUND",
    /// An authorization without its approval digest.
    FlowApprovalMissing = "FLOW_APPROVAL_MISSING",
    /// An approval digest that does not match the effects.
    FlowApprovalMismatch = "FLOW_APPROVAL_MISMATCH",
    /// The action writes where the flow may not write.
    FlowDocsBoundaryCrossed = "FLOW_DOCS_BOUNDARY_CROSSED",
    // The flow engine: why a boundary stopped.
    /// The boundary used its attempts.
    FlowBoundaryExhausted = "FLOW_BOUNDARY_EXHAUSTED",
    /// The run is paused at the boundary so the context can be compacted.
    FlowBoundaryPaused = "FLOW_BOUNDARY_PAUSED",
    /// The run was stopped at the boundary; nothing was applied.
    FlowBoundaryDeclined = "FLOW_BOUNDARY_DECLINED",
    /// `recover` on a boundary that is not exhausted.
    FlowRecoveryNotNeeded = "FLOW_RECOVERY_NOT_NEEDED",
    /// `recover --transition` names another boundary.
    FlowRecoveryOtherBoundary = "FLOW_RECOVERY_OTHER_BOUNDARY",
    /// `recover` on an action whose effects were applied.
    FlowRecoveryEffectsApplied = "FLOW_RECOVERY_EFFECTS_APPLIED",
    /// `recover` on attempts that answered an action this aw no longer emits.
    FlowRecoveryExecutionUnverified = "FLOW_RECOVERY_EXECUTION_UNVERIFIED",
    /// An authoring row's answer without the artifacts it must carry.
    FlowArtifactsMissing = "FLOW_ARTIFACTS_MISSING",
    /// Artifacts in the answer of a row that takes none.
    FlowArtifactsNotExpected = "FLOW_ARTIFACTS_NOT_EXPECTED",
    /// A proposal whose bytes would exercise a class its row does not declare.
    FlowProposalBeyondContract = "FLOW_PROPOSAL_BEYOND_CONTRACT",
    /// A proposal destination whose current state could not be looked at.
    FlowProposalDestinationUnobserved = "FLOW_PROPOSAL_DESTINATION_UNOBSERVED",
    /// A proposal that would overwrite a file whose current text cannot be read.
    FlowProposalBaseUnreadable = "FLOW_PROPOSAL_BASE_UNREADABLE",
    /// The run moved while an internal action ran: nothing of it was applied.
    FlowRunStale = "FLOW_RUN_STALE",
    /// A `[docs]` table in `skills.toml` that moves a core documents folder or does not read.
    DocsCanonInvalid = "DOCS_CANON_INVALID",
    /// A `session-create --input` that could not be read to seal its baseline (a folder, no
    /// permission).
    CustodyBaselineUnreadable = "CUSTODY_BASELINE_UNREADABLE",
    /// A proposal's base file that no longer exists at publication.
    ProposalBaseGone = "PROPOSAL_BASE_GONE",
    /// A proposal's base file that changed after the proposal was sealed.
    ProposalBaseStale = "PROPOSAL_BASE_STALE",
    // The flow engine: attempts.
    /// An attempt recorded twice with different payloads.
    CapabilityAttemptDiverged = "CAPABILITY_ATTEMPT_DIVERGED",
    /// An attempt that arrived after a later one.
    CapabilityAttemptOutOfSequence = "CAPABILITY_ATTEMPT_OUT_OF_SEQUENCE",
    /// An attempt that does not link to the latest one.
    CapabilityParentNotImmediate = "CAPABILITY_PARENT_NOT_IMMEDIATE",
    // Capability descriptors and their locators.
    /// A capability descriptor that is not a JSON object.
    CapabilityDescriptorNotObject = "CAPABILITY_DESCRIPTOR_NOT_OBJECT",
    /// A capability descriptor whose `contract_version` aw does not read.
    CapabilityContractVersionUnsupported = "CAPABILITY_CONTRACT_VERSION_UNSUPPORTED",
    /// A key a closed descriptor object does not allow.
    CapabilityKeyUnknown = "CAPABILITY_KEY_UNKNOWN",
    /// A descriptor field with a missing or invalid value.
    CapabilityFieldInvalid = "CAPABILITY_FIELD_INVALID",
    /// A descriptor published under a retired capability name.
    CapabilityNameRetired = "CAPABILITY_NAME_RETIRED",
    /// A SKILL.md descriptor locator that is not `<relative path>.json#sha256=<digest>`.
    CapabilityLocatorInvalid = "CAPABILITY_LOCATOR_INVALID",
    /// Descriptor bytes that do not hash to the locator's sealed digest.
    CapabilityDescriptorDigestMismatch = "CAPABILITY_DESCRIPTOR_DIGEST_MISMATCH",
    /// Descriptor bytes that are not JSON.
    CapabilityDescriptorNotJson = "CAPABILITY_DESCRIPTOR_NOT_JSON",
    /// A locator whose descriptor file is not in the skill folder.
    CapabilityDescriptorMissing = "CAPABILITY_DESCRIPTOR_MISSING",
    /// A locator whose descriptor is reached through a link, leaves the skill folder, or is not
    /// a regular file.
    CapabilityDescriptorNotConfined = "CAPABILITY_DESCRIPTOR_NOT_CONFINED",
    /// A sealed descriptor file that cannot be read.
    CapabilityDescriptorUnreadable = "CAPABILITY_DESCRIPTOR_UNREADABLE",
    /// Installed skills with one name whose bytes differ.
    CapabilityInstanceCollision = "CAPABILITY_INSTANCE_COLLISION",
    // Capability requests and receipts.
    /// A request whose `invocation_id` is not a lowercase UUID.
    CapabilityInvocationIdInvalid = "CAPABILITY_INVOCATION_ID_INVALID",
    /// A request whose `attempt` is not an integer of at least 1.
    CapabilityAttemptInvalid = "CAPABILITY_ATTEMPT_INVALID",
    /// A first attempt that names a parent request.
    CapabilityParentUnexpected = "CAPABILITY_PARENT_UNEXPECTED",
    /// A later attempt that names no parent request.
    CapabilityParentMissing = "CAPABILITY_PARENT_MISSING",
    /// A carried parent request whose digest does not match its fields.
    CapabilityParentAltered = "CAPABILITY_PARENT_ALTERED",
    /// An operation the capability does not declare.
    CapabilityOperationUnknown = "CAPABILITY_OPERATION_UNKNOWN",
    /// A caller route the operation is not exposed on.
    CapabilityRouteUnsupported = "CAPABILITY_ROUTE_UNSUPPORTED",
    /// An input the operation does not declare.
    CapabilityInputUndeclared = "CAPABILITY_INPUT_UNDECLARED",
    /// An input given twice.
    CapabilityInputRepeated = "CAPABILITY_INPUT_REPEATED",
    /// An input whose provenance has a blank origin.
    CapabilityInputProvenanceMissing = "CAPABILITY_INPUT_PROVENANCE_MISSING",
    /// A sensitive input while sensitive sources are not allowed.
    CapabilitySensitiveInputUnauthorized = "CAPABILITY_SENSITIVE_INPUT_UNAUTHORIZED",
    /// A required input that was not given.
    CapabilityInputRequiredMissing = "CAPABILITY_INPUT_REQUIRED_MISSING",
    /// An operation that needs a workspace, run outside one.
    CapabilityWorkspaceRequired = "CAPABILITY_WORKSPACE_REQUIRED",
    /// A receipt without a next action (a bug in aw).
    CapabilityReceiptNoNextAction = "CAPABILITY_RECEIPT_NO_NEXT_ACTION",
    /// A completed receipt without an output or its completeness (a bug in aw).
    CapabilityCompletedWithoutOutput = "CAPABILITY_COMPLETED_WITHOUT_OUTPUT",
    /// A completed receipt that carries an error (a bug in aw).
    CapabilityCompletedWithError = "CAPABILITY_COMPLETED_WITH_ERROR",
    /// A failed or blocked receipt without an error (a bug in aw).
    CapabilityFailureWithoutError = "CAPABILITY_FAILURE_WITHOUT_ERROR",
    /// A needs_input receipt that lists no gaps (a bug in aw).
    CapabilityNeedsInputWithoutGaps = "CAPABILITY_NEEDS_INPUT_WITHOUT_GAPS",
    /// Gaps on a receipt whose outcome is not needs_input (a bug in aw).
    CapabilityGapsWithoutNeedsInput = "CAPABILITY_GAPS_WITHOUT_NEEDS_INPUT",
    /// A receipt input marked unused without a reason (a bug in aw).
    CapabilityInputDiscardedSilently = "CAPABILITY_INPUT_DISCARDED_SILENTLY",
    /// An applied or approved effect class that was not planned (a bug in aw).
    CapabilityEffectUnplanned = "CAPABILITY_EFFECT_UNPLANNED",
    /// A degradation whose cause the descriptor does not declare (a bug in aw).
    CapabilityDegradationUndeclared = "CAPABILITY_DEGRADATION_UNDECLARED",
    /// A degradation that does not say what was lost (a bug in aw).
    CapabilityDegradationWithoutLoss = "CAPABILITY_DEGRADATION_WITHOUT_LOSS",
    /// A receipt that credits both the floor and selected contributors (a bug in aw).
    CapabilityFloorWithSelection = "CAPABILITY_FLOOR_WITH_SELECTION",
    // Capability effects, durable plans and their approval.
    /// A durable plan for an operation that declares no durable effect class.
    CapabilityEffectNotDurable = "CAPABILITY_EFFECT_NOT_DURABLE",
    /// A durable plan for an effect class the host's policy denies.
    CapabilityEffectDenied = "CAPABILITY_EFFECT_DENIED",
    /// A durable plan with no artifacts.
    CapabilityEffectEmpty = "CAPABILITY_EFFECT_EMPTY",
    /// An approval digest that does not match the plan's recomputed seal.
    CapabilityApprovalMismatch = "CAPABILITY_APPROVAL_MISMATCH",
    /// An effect class that needs a visible approval and was not granted.
    CapabilityApprovalMissing = "CAPABILITY_APPROVAL_MISSING",
    /// A plan's base file that no longer exists.
    CapabilityBaseGone = "CAPABILITY_BASE_GONE",
    /// A plan's base file that changed since the plan was sealed.
    CapabilityBaseStale = "CAPABILITY_BASE_STALE",
    /// An operation that the capability's `off` binding blocks.
    CapabilityOperationOff = "CAPABILITY_OPERATION_OFF",
    /// A capability name no handler is registered under.
    CapabilityUnknown = "CAPABILITY_UNKNOWN",
    /// No operation named, and the capability declares no default one.
    CapabilityOperationMissing = "CAPABILITY_OPERATION_MISSING",
    /// `apply` without its request, its plan or its approval.
    CapabilityApplyIncomplete = "CAPABILITY_APPLY_INCOMPLETE",
    /// An artifact path outside the allowed destinations, or not a safe relative path.
    SemanticPathRejected = "SEMANTIC_PATH_REJECTED",
    /// A semantic answer that does not fit its envelope (version, operation, state, artifacts).
    SemanticResponseInvalid = "SEMANTIC_RESPONSE_INVALID",
    /// A semantic answer that quotes another request's `input_digest`.
    SemanticStale = "SEMANTIC_STALE",
    /// A semantic answer that reports the request as ambiguous.
    SemanticAmbiguous = "SEMANTIC_AMBIGUOUS",
    /// A semantic answer that reports the request as one it cannot author.
    SemanticUnsupported = "SEMANTIC_UNSUPPORTED",
    /// An apply that found the workspace lock held by another process past the wait.
    CapabilityEffectLocked = "CAPABILITY_EFFECT_LOCKED",
    /// An artifact whose file already exists, and the plan does not allow replacing it.
    PublishTargetExists = "PUBLISH_TARGET_EXISTS",
    /// An artifact that could not be written (what the apply had written before is undone).
    PublishFailed = "PUBLISH_FAILED",
    // Capability resolution, the selection pin and composition by flows.
    /// An operation the capability's resolution makes unavailable (misconfigured or no floor).
    CapabilityUnavailable = "CAPABILITY_UNAVAILABLE",
    /// A pinned contributor that is no longer installed with the pinned bytes.
    CapabilitySelectionChanged = "CAPABILITY_SELECTION_CHANGED",
    /// A flow that composes a capability without naming the operation.
    CapabilityComposeOperationMissing = "CAPABILITY_COMPOSE_OPERATION_MISSING",
    /// A flow that composes an operation its row of the caller table does not allow.
    CapabilityComposeNotAllowed = "CAPABILITY_COMPOSE_NOT_ALLOWED",
    /// A composed result that a flow requires complete and is not.
    CapabilityOutputIncomplete = "CAPABILITY_OUTPUT_INCOMPLETE",
    /// A flow gate that passes a check the capability failed.
    CapabilityGateLowered = "CAPABILITY_GATE_LOWERED",
    /// An adopted durable reference to a package the index does not have.
    CapabilityAdoptionNotFound = "CAPABILITY_ADOPTION_NOT_FOUND",
    /// An adopted durable reference whose revision is not the current baseline's.
    CapabilityAdoptionRevisionMismatch = "CAPABILITY_ADOPTION_REVISION_MISMATCH",
    /// An adopted durable reference whose digest is not the current baseline's.
    CapabilityAdoptionDigestMismatch = "CAPABILITY_ADOPTION_DIGEST_MISMATCH",
    // The design capability (its floor handler, sources and package index).
    /// `design.validate` run outside a workspace: there is no index to look in.
    DesignWorkspaceAbsent = "DESIGN_WORKSPACE_ABSENT",
    /// No package under `docs/designs/` answers to the identity asked for (for `update`, `render` and `record`: no valid one).
    DesignPackageNotFound = "DESIGN_PACKAGE_NOT_FOUND",
    /// `aw designs --plan` given a plan that does not exist.
    DesignPlanUnreadable = "DESIGN_PLAN_UNREADABLE",
    /// A plan whose design references do not pass the plan-exec design gate.
    DesignGateFailed = "DESIGN_GATE_FAILED",
    /// An authoring operation outside a workspace without an explicit root (`--target`).
    DesignOutputRootRequired = "DESIGN_OUTPUT_ROOT_REQUIRED",
    /// A declared output root inside a workspace that is not a safe relative path (an absolute path included).
    DesignOutputRootUnsafe = "DESIGN_OUTPUT_ROOT_UNSAFE",
    /// A `render` profile that is not a registered adapter id.
    DesignAdapterUnknown = "DESIGN_ADAPTER_UNKNOWN",
    /// A source that did not contribute and does not say why.
    DesignSourceWithoutReason = "DESIGN_SOURCE_WITHOUT_REASON",
    /// A source declared non-essential without saying why.
    DesignSourceOptionalWithoutReason = "DESIGN_SOURCE_OPTIONAL_WITHOUT_REASON",
    /// A copy of an original approved for a source name nobody declared.
    DesignSourceCopyUnknown = "DESIGN_SOURCE_COPY_UNKNOWN",
    /// A copy of an original approved for a source the design did not use.
    DesignSourceCopyUnused = "DESIGN_SOURCE_COPY_UNUSED",
    /// A copy of an original approved for a sensitive source.
    DesignSourceCopySensitive = "DESIGN_SOURCE_COPY_SENSITIVE",
    /// Two packages under `docs/designs/` claim one identity.
    DesignIdDuplicate = "DESIGN_ID_DUPLICATE",
    /// A leaf folder under `docs/designs/` without a `design-manifest.json`.
    DesignManifestMissing = "DESIGN_MANIFEST_MISSING",
    /// A `design-manifest.json` that cannot be read (not a regular file, too large) or is not JSON.
    DesignManifestUnreadable = "DESIGN_MANIFEST_UNREADABLE",
    /// A `design-manifest.json` whose fields break the manifest rules.
    DesignManifestInvalid = "DESIGN_MANIFEST_INVALID",
    /// A manifest `digest` that is not the SHA-256 of the package's `DESIGN.md` (or a `DESIGN.md` that cannot be read to check it).
    DesignDigestMismatch = "DESIGN_DIGEST_MISMATCH",
    /// A review file (`reviews/rNNN.json`) that is not UTF-8 JSON.
    DesignReviewUnreadable = "DESIGN_REVIEW_UNREADABLE",
    /// A review file whose keys or fields break the review format.
    DesignReviewInvalid = "DESIGN_REVIEW_INVALID",
    /// A `record` whose `decision` input is not `approved`, `rejected` or `changes-requested`.
    DesignDecisionInvalid = "DESIGN_DECISION_INVALID",
    /// A `DESIGN.md` that breaks the content gate: no `# <title>` first line, a required section missing or empty, an optional section present and empty.
    DesignContentInvalid = "DESIGN_CONTENT_INVALID",
    /// A `create` title with no ASCII letter or digit to name the package folder after.
    DesignTitleInvalid = "DESIGN_TITLE_INVALID",
    /// An `update` base that is not `DES-NNN@rN` for the package being updated.
    DesignBaseInvalid = "DESIGN_BASE_INVALID",
    /// An `update` base that is not the package's current revision.
    DesignBaseStale = "DESIGN_BASE_STALE",
    /// A `create` whose package number was taken by another entry of the root after the plan was prepared.
    DesignNumberTaken = "DESIGN_NUMBER_TAKEN",
    /// A manifest source naming a package the index does not have (or a revision it never had), or a file that does not exist.
    DesignReferenceUnresolved = "DESIGN_REFERENCE_UNRESOLVED",
    /// A `record` whose `revision` input is not `rN`/`N`, or names a revision the package does not have.
    DesignRevisionNotFound = "DESIGN_REVISION_NOT_FOUND",
    // The agent bundle: read-sets and budgets.
    /// `aw context-plan` without `--command`.
    ContextPlanNoCommand = "CONTEXT_PLAN_NO_COMMAND",
    /// `aw context-plan --command` names no command of the bundle.
    ContextPlanUnknownCommand = "CONTEXT_PLAN_UNKNOWN_COMMAND",
    /// A `--root` that does not exist.
    ContextRootNotFound = "CONTEXT_ROOT_NOT_FOUND",
    /// A `--root` that is not a bundle (no `SKILL.md` beside a `commands/` folder).
    ContextRootNotABundle = "CONTEXT_ROOT_NOT_A_BUNDLE",
    /// `aw context-budget --baseline` names a file that cannot be read or is not a budget report.
    ContextBaselineInvalid = "CONTEXT_BASELINE_INVALID",
    // Host installation (`aw self`).
    /// `aw self install`: a file or folder aw did not install stands where aw would write (a
    /// person's own skill or command of the same name); nothing was written.
    InstallConflictForeign = "INSTALL_CONFLICT_FOREIGN",
    /// `aw self install | uninstall`: a path would be written through a symbolic link that leads
    /// out of the host's folder, or the host's folder is not a folder; nothing was written.
    InstallPathUnsafe = "INSTALL_PATH_UNSAFE",
    /// `aw self install | uninstall`: a host settings file aw merges hooks into is not a JSON
    /// object of the expected shape; nothing was written.
    SettingsInvalidJson = "SETTINGS_INVALID_JSON",
    /// `aw self install | uninstall | doctor`: HOME is not set, so no host folder can be found;
    /// `aw worktree list`: so the units root cannot be found.
    HomeUnset = "HOME_UNSET",
    // aw family modes
    /// A skill folder whose `capability.json` is missing or not a readable regular file.
    FamilyManifestUnreadable = "FAMILY_MANIFEST_UNREADABLE",
    /// A `capability.json` that is not a JSON object.
    FamilyManifestMalformed = "FAMILY_MANIFEST_MALFORMED",
    // aw family links
    /// A member whose `roles.*.cmd` / `source` give no valid link set, or a source that cannot
    /// be linked (missing, a link, not a regular file).
    FamilyLinksInvalid = "FAMILY_LINKS_INVALID",
    /// Something that is not aw's link is where a wrapper link goes.
    FamilyLinkConflict = "FAMILY_LINK_CONFLICT",
    /// A bin path aw cannot write into (not a folder, unreadable).
    FamilyBinDirUnsafe = "FAMILY_BIN_DIR_UNSAFE",
    // The directive's own checks (a failed check is a bug in aw, reported as such).
    /// A directive without a next action.
    FlowDirectiveNoNextAction = "FLOW_DIRECTIVE_NO_NEXT_ACTION",
    /// A final directive that still lists pending transitions.
    FlowDirectiveFinalWithPending = "FLOW_DIRECTIVE_FINAL_WITH_PENDING",
    /// A final directive that names a transition.
    FlowDirectiveFinalWithTransition = "FLOW_DIRECTIVE_FINAL_WITH_TRANSITION",
    /// A boundary without its transition.
    FlowDirectiveBoundaryWithoutTransition = "FLOW_DIRECTIVE_BOUNDARY_WITHOUT_TRANSITION",
    /// A semantic boundary without its request.
    FlowDirectiveSemanticWithoutRequest = "FLOW_DIRECTIVE_SEMANTIC_WITHOUT_REQUEST",
    /// A request at a boundary that is not semantic.
    FlowDirectiveRequestWithoutSemantic = "FLOW_DIRECTIVE_REQUEST_WITHOUT_SEMANTIC",
    /// An execution boundary without its action.
    FlowDirectiveExecutionWithoutAction = "FLOW_DIRECTIVE_EXECUTION_WITHOUT_ACTION",
    /// An action outside an execution boundary.
    FlowDirectiveActionWithoutBoundary = "FLOW_DIRECTIVE_ACTION_WITHOUT_BOUNDARY",
    /// An action without its program or its target.
    FlowDirectiveActionIncomplete = "FLOW_DIRECTIVE_ACTION_INCOMPLETE",
    /// An action that demands no evidence.
    FlowDirectiveActionWithoutEvidence = "FLOW_DIRECTIVE_ACTION_WITHOUT_EVIDENCE",
    /// An action with no recovery.
    FlowDirectiveActionWithoutRecovery = "FLOW_DIRECTIVE_ACTION_WITHOUT_RECOVERY",
    /// Choices at a boundary that takes none.
    FlowDirectiveChoicesWithoutBoundary = "FLOW_DIRECTIVE_CHOICES_WITHOUT_BOUNDARY",
    /// A boundary offers fewer than two choices.
    FlowDirectiveChoiceSetTooSmall = "FLOW_DIRECTIVE_CHOICE_SET_TOO_SMALL",
    /// A choice without its label or its consequence.
    FlowDirectiveChoiceWithoutConsequence = "FLOW_DIRECTIVE_CHOICE_WITHOUT_CONSEQUENCE",
    /// The choices do not recommend exactly one option.
    FlowDirectiveRecommendationAmbiguous = "FLOW_DIRECTIVE_RECOMMENDATION_AMBIGUOUS",
    /// An authorization boundary asks for classes the run already holds.
    FlowDirectiveAuthorizationWithoutGap = "FLOW_DIRECTIVE_AUTHORIZATION_WITHOUT_GAP",
    /// An effect class that is not planned.
    FlowDirectiveEffectUnplanned = "FLOW_DIRECTIVE_EFFECT_UNPLANNED",
    /// A blocked boundary without its cause.
    FlowDirectiveBlockedWithoutCause = "FLOW_DIRECTIVE_BLOCKED_WITHOUT_CAUSE",
    /// The trace lists a step twice.
    FlowDirectiveAppliedRepeated = "FLOW_DIRECTIVE_APPLIED_REPEATED",
    /// A step's reason does not fit its outcome.
    FlowDirectiveStepReasonMismatch = "FLOW_DIRECTIVE_STEP_REASON_MISMATCH",
    /// A boundary stands on a transition the CLI does not own.
    FlowDirectiveOwnershipContradicted = "FLOW_DIRECTIVE_OWNERSHIP_CONTRADICTED",
    // aw family settings
    /// A settings key no member's manifest declares.
    FamilySettingsUnknownKey = "FAMILY_SETTINGS_UNKNOWN_KEY",
    /// `set` of a key its manifest marks retired.
    FamilySettingsRetired = "FAMILY_SETTINGS_RETIRED",
    /// A value the setting's kind refuses.
    FamilySettingsInvalidValue = "FAMILY_SETTINGS_INVALID_VALUE",
    /// A `--from` folder whose manifest is missing or not VALID.
    FamilySettingsManifestInvalid = "FAMILY_SETTINGS_MANIFEST_INVALID",
    /// Neither XDG_CONFIG_HOME nor HOME says where the settings file lives.
    FamilySettingsNoConfigDir = "FAMILY_SETTINGS_NO_CONFIG_DIR",
    /// The settings file exists but is not a readable UTF-8 regular file.
    FamilySettingsFileUnreadable = "FAMILY_SETTINGS_FILE_UNREADABLE",
    /// The settings file has no write permission; it is left as it is.
    FamilySettingsReadOnly = "FAMILY_SETTINGS_READ_ONLY",
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl schemars::JsonSchema for ErrorCode {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ErrorCode".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        schemars::json_schema!({ "type": "string", "enum": codes })
    }
}

impl PartialEq<str> for ErrorCode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    const PROTOCOL: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/PROTOCOL.md"
    ));

    /// Codes a board model carries inside its text (a plan's reconciliation names why a decision
    /// chain does not read or compose): the reference's, never an envelope's `error.code`.
    const IN_MODELS: &[&str] = &[
        "CONTRACT_ASSERTION_ABSENT",
        "CONTRACT_BASELINE_ABSENT",
        "CONTRACT_CONTRADICTION",
        "CONTRACT_OVERLAP",
        "NOTE_ALREADY_PUBLISHED",
        "NOTE_SUPERSEDES_ABSENT",
    ];

    /// The environment variables PROTOCOL.md names (aw's own, and the hosts' markers), the only
    /// UPPER_SNAKE words in it that are not codes.
    const ENVIRONMENT: &[&str] = &[
        "AW_AGENT_WORKFLOW_BIN",
        "AW_ANSWER_IDLE_MS",
        "AW_ANSWER_MAX_BYTES",
        "AW_COMMIT_ADVISOR",
        "AW_CONTEXT_ID",
        "AW_DOC_LANGUAGE",
        "AW_HOOK_BUDGET_MS",
        "AW_LOCK_WAIT_MS",
        "AW_NAMESPACE",
        "AW_SQL_GUARD",
        "AW_SQL_GUARD_ALLOW",
        "AW_TEST_NOW",
        "AW_TEST_STALL_MS",
        "CLAUDE_AGENT_ID",
        "CLAUDE_CODE_SESSION_ID",
        "CLAUDE_CONFIG_DIR",
        "CLAUDE_PLUGIN_ROOT",
        "CLICOLOR_FORCE",
        "CODEX_CLI",
        "CODEX_HOME",
        "CODEX_RUNTIME",
        "CODEX_THREAD_ID",
        "CRUSH_CONFIG",
        "GEMINI_CLI",
        "GEMINI_SANDBOX",
        "GIT_CEILING_DIRECTORIES",
        "GIT_COMMON_DIR",
        "GIT_DIR",
        "GIT_DISCOVERY_ACROSS_FILESYSTEM",
        "GIT_WORK_TREE",
        "NO_COLOR",
        "OZ_RUN_ID",
        "TERM_PROGRAM",
        "WARP_IS_LOCAL_SHELL_SESSION",
        "XDG_CONFIG_HOME",
    ];

    /// The codes docs/PROTOCOL.md lists in its "Error codes" table: the first cell of each row,
    /// in backticks.
    fn documented() -> BTreeSet<String> {
        let table = PROTOCOL
            .split("\n## Error codes\n")
            .nth(1)
            .expect("docs/PROTOCOL.md has an `## Error codes` section");
        let table = table.split("\n## ").next().unwrap_or(table);
        table
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| l.split('`').next())
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn every_code_is_documented_and_every_documented_code_exists() {
        let ours: BTreeSet<String> = ErrorCode::ALL
            .iter()
            .map(|c| c.as_str().to_owned())
            .collect();
        let documented = documented();
        let undocumented: Vec<_> = ours.difference(&documented).collect();
        let unknown: Vec<_> = documented.difference(&ours).collect();
        assert!(
            undocumented.is_empty(),
            "codes missing from PROTOCOL.md: {undocumented:?}"
        );
        assert!(
            unknown.is_empty(),
            "PROTOCOL.md lists codes aw does not have: {unknown:?}"
        );
    }

    #[test]
    fn every_code_protocol_names_anywhere_exists() {
        let ours: BTreeSet<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        let stray: BTreeSet<&str> = PROTOCOL
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|t| {
                t.contains('_')
                    && t.starts_with(|c: char| c.is_ascii_uppercase())
                    && t.bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            })
            .filter(|t| !ours.contains(t) && !ENVIRONMENT.contains(t) && !IN_MODELS.contains(t))
            .collect();
        assert!(
            stray.is_empty(),
            "PROTOCOL.md names codes aw does not have: {stray:?}"
        );
    }

    #[test]
    fn codes_are_unique_upper_snake_and_serialize_as_their_spelling() {
        let mut seen = BTreeSet::new();
        for c in ErrorCode::ALL {
            let s = c.as_str();
            assert!(seen.insert(s), "{s} twice");
            assert!(
                s.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') && !s.starts_with('_'),
                "{s}"
            );
            assert_eq!(serde_json::to_string(c).unwrap(), format!("\"{s}\""));
            assert_eq!(c.to_string(), s);
            assert!(*c == s);
        }
    }
}
