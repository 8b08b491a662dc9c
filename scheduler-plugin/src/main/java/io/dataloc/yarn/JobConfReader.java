package io.dataloc.yarn;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a few properties of a job's {@code job.xml} and nothing else. The file is the user's, so
 * the parser Hadoop's {@code Configuration} uses (which follows XInclude and external entities,
 * and so would make the ResourceManager read its own files or open URLs the job names) is not
 * used: this one refuses any DTD (hence every entity, internal or external), never resolves
 * anything, has no XInclude, and keeps only the wanted {@code <property>}'s name and value as
 * written (no {@code ${...}} substitution). The stream it is given is already bounded in bytes.
 */
final class JobConfReader {
  private JobConfReader() {}

  /**
   * The values of the wanted properties found under {@code <configuration>}; the last one wins,
   * as in Hadoop.
   *
   * @throws PlacementBoundException if the document has a DTD
   * @throws IOException if it is not well-formed XML
   */
  static Map<String, String> read(InputStream in, Set<String> wanted) throws IOException {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
    f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
    f.setXMLResolver((publicId, systemId, base, ns) -> {
      throw new XMLStreamException("refused to resolve " + systemId);
    });
    Map<String, String> out = new HashMap<>();
    XMLStreamReader r = null;
    try {
      r = f.createXMLStreamReader(in);
      String name = null;
      String value = null;
      String field = null;
      StringBuilder text = new StringBuilder();
      while (r.hasNext()) {
        switch (r.next()) {
          case XMLStreamConstants.DTD:
            throw new PlacementBoundException("job.xml has a DTD (refused)");
          case XMLStreamConstants.ENTITY_REFERENCE:
            throw new PlacementBoundException("job.xml refers to entity &" + r.getLocalName() + "; (refused)");
          case XMLStreamConstants.START_ELEMENT: {
            String tag = r.getLocalName();
            if (tag.equals("property")) {
              name = null;
              value = null;
            } else if (tag.equals("name") || tag.equals("value")) {
              field = tag;
              text.setLength(0);
            }
            break;
          }
          case XMLStreamConstants.CHARACTERS:
          case XMLStreamConstants.CDATA:
          case XMLStreamConstants.SPACE: {
            if (field != null && text.length() < 65_536) {
              text.append(r.getText());
            }
            break;
          }
          case XMLStreamConstants.END_ELEMENT: {
            String tag = r.getLocalName();
            if (tag.equals("name") && "name".equals(field)) {
              name = text.toString().trim();
              field = null;
            } else if (tag.equals("value") && "value".equals(field)) {
              value = text.toString().trim();
              field = null;
            } else if (tag.equals("property") && name != null && value != null && wanted.contains(name)) {
              out.put(name, value);
            }
            break;
          }
          default: {
            // comments, processing instructions: nothing to do
            break;
          }
        }
      }
      return out;
    } catch (XMLStreamException e) {
      throw new IOException("job.xml is not readable XML: " + e.getMessage(), e);
    } finally {
      if (r != null) {
        try {
          r.close();
        } catch (XMLStreamException ignored) {
          // nothing held
        }
      }
    }
  }
}
