import { describe, expect, test } from 'vitest';
import { closestName, didYouMean, editDistance } from './closest.ts';

describe('closest names', () => {
  test('editDistance counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('CATALOGUE_PROFILE', 'CATALOGUE_PROFILES')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  test('a slip finds the name meant; another word finds nothing', () => {
    const keys = ['CATALOGUE_PROFILES', 'CATALOGUE_BASE_URL', 'CATALOGUE_SEED'];
    expect(closestName('CATALOGUE_PROFILE', keys)).toBe('CATALOGUE_PROFILES');
    expect(closestName('catalogue_base_url', keys)).toBe('CATALOGUE_BASE_URL');
    expect(closestName('CATALOGUE_WHATEVER_ELSE', keys)).toBeNull();
    expect(closestName('x', [])).toBeNull();
    expect(didYouMean('favorite', ['favorites', 'reviews'])).toBe('; did you mean favorites?');
    expect(didYouMean('zzz', ['favorites'])).toBe('');
  });
});
