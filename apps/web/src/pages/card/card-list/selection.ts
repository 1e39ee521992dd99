import { create } from 'zustand';

/**
 * Cards chosen on the card list, handed to the allocation screen (/card/card-list/numcard), which the spec
 * keeps out of the tab strip. Kept in memory only: a reload starts with no selection.
 */
export const useCardSelection = create<{ iccids: string[]; set: (iccids: string[]) => void }>((set) => ({
  iccids: [],
  set: (iccids) => set({ iccids }),
}));
