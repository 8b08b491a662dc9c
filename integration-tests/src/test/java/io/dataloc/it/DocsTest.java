package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The manual holds together: every relative link of the README, the changelog and {@code docs/}
 * names a file that exists and, into a Markdown file, a heading it has (GitHub's anchors); no
 * document speaks of issue numbers; the README stays a front page.
 */
class DocsTest {
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);
  private static final Pattern FENCE = Pattern.compile("^```.*?^```", Pattern.MULTILINE | Pattern.DOTALL);

  private static List<Path> documents() throws Exception {
    Path root = Scripts.root();
    List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("CHANGELOG.md")));
    try (Stream<Path> s = Files.list(root.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  private static String text(Path p) throws Exception {
    return FENCE.matcher(Files.readString(p, StandardCharsets.UTF_8)).replaceAll("");
  }

  /** GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces to '-', repeats numbered. */
  static Set<String> anchors(String markdown) {
    Set<String> out = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    Matcher m = HEADING.matcher(markdown);
    while (m.find()) {
      String slug = m.group(1).trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
      int n = seen.merge(slug, 1, Integer::sum);
      out.add(n == 1 ? slug : slug + "-" + (n - 1));
    }
    return out;
  }

  @Test
  void anchorsFollowGitHubsRules() {
    assertEquals(Set.of("fischer--round-robin-vs-flow-vs-the-optimum-fischer-su-yin", "bindataloc-plan", "a", "a-1"),
        anchors("### `fischer` — round robin vs flow vs the optimum (Fischer, Su, Yin)\n## `bin/dataloc plan`\n# A\n# A\n"));
  }

  @Test
  void everyRelativeLinkResolves() throws Exception {
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path doc : documents()) {
      Matcher m = LINK.matcher(text(doc));
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue; // http:, https:, mailto:
        }
        links++;
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
          broken.add(doc.getFileName() + ": " + target + " (no such file)");
        } else if (hash >= 0 && resolved.toString().endsWith(".md")
            && !anchors(text(resolved)).contains(target.substring(hash + 1))) {
          broken.add(doc.getFileName() + ": " + target + " (no such heading)");
        }
      }
    }
    assertTrue(links > 50, "links found: " + links);
    assertEquals(List.of(), broken);
  }

  @Test
  void noDocumentSpeaksOfIssueNumbersAndTheReadmeIsAFrontPage() throws Exception {
    Pattern issue = Pattern.compile("\\bissues? #?\\d+", Pattern.CASE_INSENSITIVE);
    for (Path doc : documents()) {
      Matcher m = issue.matcher(Files.readString(doc, StandardCharsets.UTF_8));
      if (m.find()) {
        throw new AssertionError(doc.getFileName() + " speaks of an issue: " + m.group());
      }
    }
    List<String> readme = Files.readAllLines(Scripts.root().resolve("README.md"), StandardCharsets.UTF_8);
    assertTrue(readme.size() <= 250, "README.md has " + readme.size() + " lines: details belong in docs/");
  }
}
