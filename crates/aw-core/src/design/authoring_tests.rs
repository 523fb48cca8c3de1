use super::*;

#[test]
fn the_contract_names_the_document_the_root_and_the_answer() {
    let c = contract("Author it.", "the workspace");
    assert!(c.starts_with("Author it. DESIGN.md starts with '# <title>'"));
    assert!(c.contains("Paths are relative to the workspace."));
    assert!(c.ends_with(ANSWER_SHAPE));
    assert!(c.is_ascii());
}
