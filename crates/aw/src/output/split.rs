//! Pretty JSON of a large model written by two threads: one member of the top-level object (the
//! board's `plans`, more than half its text) is serialised on a second thread while this one
//! writes the members before it, then its text is written in its place. The bytes are those of
//! [`super::write_pretty`]; only the wall time changes (the serialisation is the board's last
//! step, when the other core has nothing left to do).
//!
//! The members are found through serde itself: a top-level serializer sees the model's
//! `serialize_struct` and each `serialize_field`, so no list of field names is kept here. A model
//! that is not a struct is written whole, on this thread.

use super::{Pretty, write_pretty};
use serde::Serialize;
use serde::ser::{Impossible, SerializeStruct, Serializer};
use std::io::Write;

/// Writes `model` as pretty JSON, its member `aside` serialised on another thread.
pub(super) fn write_pretty_split<W: Write, T: Serialize + Sync + ?Sized>(
    w: &mut W,
    model: &T,
    aside: &'static str,
) -> std::io::Result<()> {
    std::thread::scope(|scope| {
        let other = scope.spawn(move || {
            let mut collect = Collect { aside, text: None };
            model.serialize(Top(&mut collect)).ok()?;
            collect.text
        });
        let mut members = Members {
            w: &mut *w,
            aside,
            other: Some(other),
            pretty: Pretty::default(),
            first: true,
        };
        match model.serialize(Top(&mut members)) {
            Ok(()) => Ok(()),
            // Nothing was written: the first call a struct makes is the one that opens it.
            Err(Stop::NotAStruct) => write_pretty(w, model),
            Err(Stop::Io(e)) => Err(e),
        }
    })
}

/// What a top-level member does with each field of the model, in order.
trait Member {
    /// Opens the object.
    fn begin(&mut self) -> Result<(), Stop>;
    /// One field.
    fn field<V: Serialize + ?Sized>(&mut self, key: &'static str, value: &V) -> Result<(), Stop>;
    /// Closes the object.
    fn end(&mut self) -> Result<(), Stop>;
}

/// The second thread's part: serialises the value of `aside`, indented as a member, and skips
/// every other field unserialised.
struct Collect {
    aside: &'static str,
    text: Option<Vec<u8>>,
}

impl Member for Collect {
    fn begin(&mut self) -> Result<(), Stop> {
        Ok(())
    }

    fn field<V: Serialize + ?Sized>(&mut self, key: &'static str, value: &V) -> Result<(), Stop> {
        if key == self.aside && self.text.is_none() {
            let mut text = Vec::new();
            write_member_value(&mut text, value)?;
            self.text = Some(text);
        }
        Ok(())
    }

    fn end(&mut self) -> Result<(), Stop> {
        Ok(())
    }
}

/// This thread's part: writes every member, taking the text of `aside` from the other thread
/// (or serialising it here when that thread has none to give).
struct Members<'a, 's, W: Write> {
    w: &'a mut W,
    aside: &'static str,
    other: Option<std::thread::ScopedJoinHandle<'s, Option<Vec<u8>>>>,
    pretty: Pretty,
    first: bool,
}

impl<W: Write> Member for Members<'_, '_, W> {
    fn begin(&mut self) -> Result<(), Stop> {
        use serde_json::ser::Formatter;
        self.pretty.begin_object(self.w).map_err(Stop::Io)
    }

    fn field<V: Serialize + ?Sized>(&mut self, key: &'static str, value: &V) -> Result<(), Stop> {
        use serde_json::ser::Formatter;
        self.pretty
            .begin_object_key(self.w, self.first)
            .map_err(Stop::Io)?;
        self.first = false;
        serde_json::to_writer(&mut *self.w, key).map_err(|e| Stop::Io(e.into()))?;
        self.pretty.begin_object_value(self.w).map_err(Stop::Io)?;
        let done = match (key == self.aside).then(|| self.other.take()).flatten() {
            Some(other) => other.join().ok().flatten(),
            None => None,
        };
        match done {
            Some(text) => self.w.write_all(&text).map_err(Stop::Io)?,
            None => write_member_value(self.w, value)?,
        }
        self.pretty.end_object_value(self.w).map_err(Stop::Io)
    }

    fn end(&mut self) -> Result<(), Stop> {
        use serde_json::ser::Formatter;
        self.pretty.end_object(self.w).map_err(Stop::Io)
    }
}

/// A member's value, indented one level in, as the whole object's serialisation writes it.
fn write_member_value<W: Write, V: Serialize + ?Sized>(w: &mut W, value: &V) -> Result<(), Stop> {
    let mut ser = serde_json::Serializer::with_formatter(w, Pretty::at_level(1));
    value
        .serialize(&mut ser)
        .map_err(|e| Stop::Io(std::io::Error::from(e)))
}

/// Why the top-level pass stopped.
#[derive(Debug)]
enum Stop {
    /// The model is not a struct (nothing was written).
    NotAStruct,
    /// Writing failed, or the model refused to serialise.
    Io(std::io::Error),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::NotAStruct => f.write_str("the model is not a struct"),
            Stop::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Stop {}

impl serde::ser::Error for Stop {
    fn custom<M: std::fmt::Display>(msg: M) -> Self {
        Stop::Io(std::io::Error::other(msg.to_string()))
    }
}

/// The serializer the model meets at its top level: a struct goes member by member to `M`;
/// anything else stops the pass.
struct Top<'m, M>(&'m mut M);

/// Fields of the top-level struct.
struct Fields<'m, M>(&'m mut M);

impl<M: Member> SerializeStruct for Fields<'_, M> {
    type Ok = ();
    type Error = Stop;

    fn serialize_field<V: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), Stop> {
        self.0.field(key, value)
    }

    fn end(self) -> Result<(), Stop> {
        self.0.end()
    }
}

/// Methods of [`Serializer`] for values that are not a struct: they stop the pass.
macro_rules! not_a_struct {
    ($($name:ident($($arg:ty),*) -> $ret:ty;)*) => {
        $(fn $name(self, $(_: $arg),*) -> Result<$ret, Stop> {
            Err(Stop::NotAStruct)
        })*
    };
}

impl<'m, M: Member> Serializer for Top<'m, M> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Impossible<(), Stop>;
    type SerializeTuple = Impossible<(), Stop>;
    type SerializeTupleStruct = Impossible<(), Stop>;
    type SerializeTupleVariant = Impossible<(), Stop>;
    type SerializeMap = Impossible<(), Stop>;
    type SerializeStruct = Fields<'m, M>;
    type SerializeStructVariant = Impossible<(), Stop>;

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Fields<'m, M>, Stop> {
        self.0.begin()?;
        Ok(Fields(self.0))
    }

    not_a_struct! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_some<V: Serialize + ?Sized>(self, _: &V) -> Result<(), Stop> {
        Err(Stop::NotAStruct)
    }

    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &V,
    ) -> Result<(), Stop> {
        Err(Stop::NotAStruct)
    }

    fn serialize_newtype_variant<V: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &V,
    ) -> Result<(), Stop> {
        Err(Stop::NotAStruct)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Inner {
        name: String,
        list: Vec<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    }

    #[derive(Serialize)]
    struct Model {
        head: Inner,
        empty: Vec<Inner>,
        plans: Vec<Inner>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        skipped: Vec<u8>,
        tail: std::collections::BTreeMap<String, Vec<Inner>>,
        last: u8,
    }

    fn inner(i: u32) -> Inner {
        Inner {
            name: format!("n\"{i}\" — é\n"),
            list: (0..i).collect(),
            note: (i % 2 == 0).then(|| format!("{i}")),
        }
    }

    fn model() -> Model {
        Model {
            head: inner(3),
            empty: Vec::new(),
            plans: (0..40).map(inner).collect(),
            skipped: Vec::new(),
            tail: [("a".to_owned(), vec![inner(1)]), ("b".to_owned(), vec![])]
                .into_iter()
                .collect(),
            last: 7,
        }
    }

    fn split(model: &(impl Serialize + Sync), aside: &'static str) -> Vec<u8> {
        let mut out = Vec::new();
        write_pretty_split(&mut out, model, aside).expect("written");
        out
    }

    #[test]
    fn the_split_text_is_the_whole_serialisation_byte_for_byte() {
        let m = model();
        let whole = serde_json::to_vec_pretty(&m).expect("serialised");
        // The member set aside first, in the middle, last, absent, skipped, or empty.
        for aside in [
            "head", "plans", "last", "nothing", "skipped", "empty", "tail",
        ] {
            assert_eq!(
                String::from_utf8(split(&m, aside)).expect("utf-8"),
                String::from_utf8(whole.clone()).expect("utf-8"),
                "aside {aside}"
            );
        }
    }

    #[test]
    fn a_model_that_is_not_a_struct_is_written_whole() {
        let list = vec![inner(2), inner(3)];
        assert_eq!(
            split(&list, "plans"),
            serde_json::to_vec_pretty(&list).expect("serialised")
        );
        let map: std::collections::BTreeMap<&str, u8> = [("plans", 1)].into_iter().collect();
        assert_eq!(
            split(&map, "plans"),
            serde_json::to_vec_pretty(&map).expect("serialised")
        );
    }

    #[test]
    fn a_member_that_refuses_to_serialise_fails_the_write() {
        struct Refuses;
        impl Serialize for Refuses {
            fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom("no"))
            }
        }
        #[derive(Serialize)]
        struct M {
            a: u8,
            plans: Refuses,
        }
        let mut out = Vec::new();
        assert!(
            write_pretty_split(
                &mut out,
                &M {
                    a: 1,
                    plans: Refuses
                },
                "plans"
            )
            .is_err()
        );
    }
}
