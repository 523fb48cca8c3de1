pub mod skill;
