//! What undoing mojibake answers: the repaired text, and the chain of encodings undone.

use crate::tables::NAMES;

/// The most passes over one line: each undoes one layer of encoding.
pub(crate) const MAX_LAYERS: usize = 8;

/// What [`undo_mojibake`](crate::undo_mojibake) did to a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MojibakeFix {
    /// The repaired text.
    pub text: String,
    /// How many groups were decoded, over all layers.
    pub groups: usize,
    /// The encoding undone at each layer.
    pub chain: MojibakeChain,
}

/// The encodings undone, one per layer, outermost first; shown as people say it:
/// `windows-1252 x2`, `windows-1251`, `windows-1252, macintosh`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MojibakeChain {
    layers: [u8; MAX_LAYERS],
    len: u8,
}

/// The name of layer index `i`: an encoding of [`ENCODINGS`], or Latin-1 read where
/// windows-1252 was meant (stray C1 controls).
fn layer_name(i: u8) -> &'static str {
    NAMES.get(usize::from(i)).copied().unwrap_or("iso-8859-1")
}

impl MojibakeChain {
    /// The encoding undone at each layer, outermost first.
    pub fn layers(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.layers[..usize::from(self.len)]
            .iter()
            .map(|&i| layer_name(i))
    }

    pub(crate) fn push(&mut self, layer: u8) {
        self.layers[usize::from(self.len)] = layer;
        self.len += 1;
    }

    /// This chain, then the layers of `later` (as many as fit).
    pub(crate) fn then(mut self, later: MojibakeChain) -> MojibakeChain {
        for &layer in &later.layers[..usize::from(later.len)] {
            if usize::from(self.len) < MAX_LAYERS {
                self.push(layer);
            }
        }
        self
    }
}

impl std::fmt::Display for MojibakeChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let layers = &self.layers[..usize::from(self.len)];
        let mut i = 0;
        while i < layers.len() {
            let run = layers[i..].iter().take_while(|&&l| l == layers[i]).count();
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(layer_name(layers[i]))?;
            if run > 1 {
                write!(f, " x{run}")?;
            }
            i += run;
        }
        Ok(())
    }
}
